// The OpenAPI snapshot the site's types are generated from (src/lib/api/openapi.json) is what
// this API serves: a changed DTO fails here until `npm run api:types -- --from <API>` is run and
// the generated types are committed (tests/unit/api-types.test.ts checks that half).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

describe("the API contract", () => {
  it("matches the OpenAPI snapshot the site's types come from", async () => {
    const response = await fetch(`${inject("apiURL")}/api/openapi.json`);
    expect(response.status).toBe(200);
    const served: unknown = await response.json();
    const snapshot: unknown = JSON.parse(readFileSync(join(process.cwd(), "src/lib/api/openapi.json"), "utf8"));
    expect(served).toEqual(snapshot);
  });
});
