// The API's types for the site, generated from its OpenAPI document (issue 13): never written by
// hand, so a changed DTO shows up as a type error instead of a surprise at run time.
//
//   node scripts/api-types.mjs                       regenerate src/lib/api/schema.gen.ts from the snapshot
//   node scripts/api-types.mjs --from http://127.0.0.1:8080
//                                                    first refresh the snapshot from a running API
//
// tests/unit/api-types.test.ts fails when schema.gen.ts is not what the snapshot generates;
// tests/e2e/api-contract.test.ts fails when the snapshot is not what the API serves.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { generateApiTypes } from "./api-types-lib.mjs";

const FRONTEND = resolve(import.meta.dirname, "..");
const SNAPSHOT = resolve(FRONTEND, "src/lib/api/openapi.json");
const GENERATED = resolve(FRONTEND, "src/lib/api/schema.gen.ts");

const from = process.argv.indexOf("--from");
if (from !== -1) {
  const origin = process.argv[from + 1]?.replace(/\/$/, "");
  if (!origin) throw new Error("--from needs the API's address, e.g. http://127.0.0.1:8080");
  const response = await fetch(`${origin}/api/openapi.json`);
  if (!response.ok) throw new Error(`GET ${origin}/api/openapi.json: ${response.status}`);
  writeFileSync(SNAPSHOT, `${JSON.stringify(await response.json(), null, 2)}\n`);
  process.stdout.write(`wrote ${SNAPSHOT}\n`);
}

writeFileSync(GENERATED, await generateApiTypes(JSON.parse(readFileSync(SNAPSHOT, "utf8"))));
process.stdout.write(`wrote ${GENERATED}\n`);
