// The stdlib-only verifier a buyer can keep (scripts/verify_draw.py, docs/VERIFYING.md) on a file
// the product published: the demo's finished raffle, frozen before its lottery drew and drawn
// after, as a real one is.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiURL } from "./helpers";

const SCRIPT = resolve(process.cwd(), "../scripts/verify_draw.py");
const dir = mkdtempSync(join(tmpdir(), "rifa-verify-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The demo raffle that is finished and drawn (demo.rs: the fourth). */
const FINISHED = 4;

function run(file: string, ...args: string[]) {
  return spawnSync("python3", [SCRIPT, file, ...args], { encoding: "utf8" });
}

describe("the Python verifier on a file the product published", () => {
  it("holds for the honest file and catches one changed entry, in both languages", async () => {
    const response = await fetch(`${apiURL()}/api/raffles/${FINISHED}/draw/ledger`);
    expect(response.status).toBe(200);
    const published = (await response.json()) as { format: string; entries: [number, string][] };
    expect(published.format).toBe("rifa-draw-v2");
    const honest = join(dir, "sorteo.json");
    writeFileSync(honest, JSON.stringify(published));

    const es = run(honest);
    expect(es.status, es.stdout + es.stderr).toBe(0);
    expect(es.stdout).toContain("coincide");
    const en = run(honest, "--lang", "en");
    expect(en.status, en.stdout + en.stderr).toBe(0);

    const tampered = join(dir, "alterado.json");
    const changed = structuredClone(published);
    changed.entries[0]![1] = "00".repeat(32);
    writeFileSync(tampered, JSON.stringify(changed));
    const caught = run(tampered, "--lang", "en");
    expect(caught.status, caught.stdout).toBe(1);
    expect(caught.stdout).toContain("✗");
  });

  it("agrees with every test vector of docs/formats/draw-vectors.json", () => {
    const out = execFileSync("python3", [SCRIPT, "--vectors", resolve(process.cwd(), "../docs/formats/draw-vectors.json")], { encoding: "utf8" });
    expect(out).toMatch(/(\d+) of \1 vector checks agree/);
  });
});
