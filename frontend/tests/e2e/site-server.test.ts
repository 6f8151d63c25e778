// The site's server (server.mjs) as deployed: the API address is read when it starts, not baked
// into the build; it forwards each visitor's own address, so the API's rate limits count
// visitors, not the site; and public pages carry a Cache-Control a CDN can keep.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort, startSite, waitFor } from "./global-setup";

const children: ChildProcess[] = [];
const servers: Server[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(servers.map((server) => new Promise((r) => server.close(r))));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request from a chosen loopback address (127.0.0.0/8 is all local on Linux). */
function send(url: string, { from = "127.0.0.1", method = "GET", headers = {}, body }: { from?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, localAddress: from, timeout: 30_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.end(body);
  });
}

/** A stand-in API that names itself and remembers which paths were asked for. */
async function fakeApi(name: string) {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url === "/api/which" ? JSON.stringify({ name }) : req.url?.startsWith("/api/branding") ? "null" : "[]");
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return { origin: `http://127.0.0.1:${address.port}`, paths };
}

async function site(apiOrigin: string) {
  const port = await freePort();
  const child = startSite(port, apiOrigin, "ignore");
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/raffles`, child, 60_000);
  return base;
}

describe("the site's server", () => {
  it("uses the API address it is started with, for the browser's calls and its own pages", { timeout: 180_000 }, async () => {
    const [first, second] = await Promise.all([fakeApi("first"), fakeApi("second")]);
    const [siteOfFirst, siteOfSecond] = await Promise.all([site(first.origin), site(second.origin)]);

    expect(JSON.parse((await send(`${siteOfFirst}/api/which`)).body)).toEqual({ name: "first" });
    expect(JSON.parse((await send(`${siteOfSecond}/api/which`)).body)).toEqual({ name: "second" });

    // Server-rendered pages read the API too: the same runtime address.
    const [firstBefore, secondBefore] = [first.paths.length, second.paths.length];
    expect((await send(`${siteOfSecond}/sorteos`)).status).toBe(200);
    expect(second.paths.slice(secondBefore)).toContain("/api/raffles");
    expect(first.paths.length).toBe(firstBefore);
  });

  it("gives each visitor their own lookup budget, whatever X-Forwarded-For they send", { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "rifa-e2e-proxy-"));
    dirs.push(dataDir);
    const apiPort = await freePort();
    const apiOrigin = `http://127.0.0.1:${apiPort}`;
    const api = spawn(inject("apiBinary"), ["serve"], {
      cwd: dataDir,
      env: {
        ...process.env,
        RIFA_DATA_DIR: dataDir,
        RIFA_BIND: `127.0.0.1:${apiPort}`,
        RIFA_TRUST_PROXY: "true",
        RIFA_LOOKUPS_PER_MINUTE: "3",
        RIFA_BOOTSTRAP_ADMIN: "false",
        RIFA_DEMO_DATA: "false",
        RUST_LOG: "warn",
        DATABASE_URL: "",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(api);
    await waitFor(`${apiOrigin}/healthz`, api, 60_000);
    const base = await site(apiOrigin);

    const lookup = (from: string, headers: Record<string, string> = {}) =>
      send(`${base}/api/verify-tickets`, {
        from,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ email: "nadie@example.com" }),
      }).then((answer) => answer.status);

    for (let i = 0; i < 3; i++) expect(await lookup("127.0.0.2")).toBe(404);
    expect(await lookup("127.0.0.2")).toBe(429);
    // A made-up earlier hop does not buy a new budget: the site appends the real address.
    expect(await lookup("127.0.0.2", { "X-Forwarded-For": "203.0.113.9" })).toBe(429);
    // Another visitor behind the same site still has all of theirs.
    expect(await lookup("127.0.0.3")).toBe(404);
  });

  it("says the raffles could not be loaded when the API is down, instead of an empty catalogue", { timeout: 180_000 }, async () => {
    const api = await fakeApi("down");
    const base = await site(api.origin);
    const fake = servers.pop()!;
    fake.closeAllConnections();
    await new Promise((r) => fake.close(r));

    // The page's HTML also carries the messages for the browser, so the checks read the
    // rendered blocks: the error state with its title, and neither empty state.
    const titles = { es: "No pudimos cargar los sorteos", en: "We could not load the raffles" };
    for (const [lang, title] of Object.entries(titles)) {
      for (const path of ["/", "/sorteos"]) {
        const page = await send(`${base}${path}`, { headers: { cookie: `NEXT_LOCALE=${lang}` } });
        expect(page.status, `${lang} ${path}`).toBe(200);
        const block = /data-testid="raffles-unavailable"[^>]*>([\s\S]*?)<\/div>/.exec(page.body)?.[1] ?? "";
        expect(block, `${lang} ${path}`).toContain(title);
        expect(page.body, `${lang} ${path}`).not.toMatch(/data-testid="(home-raffles|sorteos)-empty"/);
      }
    }
  });

  it("lets a CDN keep public pages for a minute, never the admin panel or an error", { timeout: 60_000 }, async () => {
    const base = inject("baseURL");
    const home = await send(`${base}/`);
    expect(home.status).toBe(200);
    expect(home.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    expect(String(home.headers.vary)).toMatch(/\bCookie\b/);

    const admin = await send(`${base}/admin/login`);
    expect(admin.headers["cache-control"]).toMatch(/no-store/);
    const missing = await send(`${base}/sorteo/999999`);
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).toMatch(/no-store/);
  });
});
