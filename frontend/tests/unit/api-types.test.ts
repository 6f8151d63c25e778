// @vitest-environment node
// src/lib/api/schema.gen.ts is what scripts/api-types.mjs generates from the committed OpenAPI
// snapshot; tests/e2e/api-contract.test.ts checks the snapshot against the running API.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { generateApiTypes } from "../../scripts/api-types-lib.mjs";

const API = join(process.cwd(), "src/lib/api");

describe("the API's types", () => {
  it("are generated from the OpenAPI snapshot (run `npm run api:types` after changing it)", async () => {
    const snapshot: unknown = JSON.parse(readFileSync(join(API, "openapi.json"), "utf8"));
    const generated: string = await generateApiTypes(snapshot);
    expect(readFileSync(join(API, "schema.gen.ts"), "utf8")).toBe(generated);
  }, 60_000);
});
