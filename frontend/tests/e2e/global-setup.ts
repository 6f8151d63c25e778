import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, homedir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    apiURL: string;
    adminUsername: string;
    adminPassword: string;
    operatorUsername: string;
    operatorPassword: string;
    apiBinary: string;
    /** The API's data directory: its SQLite database, for tests that stand in for time passing. */
    dataDir: string;
  }
}

const FRONTEND = resolve(import.meta.dirname, "../..");
const REPO = resolve(FRONTEND, "..");
export const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";

function log(message: string) {
  process.stdout.write(`[e2e] ${message}\n`);
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  log(`${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status})`);
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function waitFor(url: string, child: ChildProcess, timeoutMs: number) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Debian's chromium, installed when missing (never a browser download), and only as root: a
 * developer's machine is not changed through sudo from inside a test run. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const why = `the browser tests drive Debian's chromium, and ${CHROMIUM} is missing`;
  if (process.getuid?.() !== 0) {
    throw new Error(`${why}: install it with \`sudo apt-get install -y chromium\` (or set CHROME_PATH)`);
  }
  log(`${why}: installing it as root with apt-get update && apt-get install -y chromium`);
  run("apt-get", ["update", "-qq"], { cwd: REPO });
  run("apt-get", ["install", "-y", "-qq", "chromium"], { cwd: REPO, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

/** This checkout's build directory, named as scripts/lib.sh names it (never shared by clones). */
export function cargoTargetDir(): string {
  if (process.env.CARGO_TARGET_DIR) return process.env.CARGO_TARGET_DIR;
  const hash = createHash("sha256").update(realpathSync(REPO)).digest("hex").slice(0, 12);
  return join(homedir(), ".cache/rifa", `target-${hash}`);
}

/** The API binary: RIFA_API_BIN, or a debug build of it (only the binary) in this checkout's cache. */
function apiBinary(): string {
  if (process.env.RIFA_API_BIN) return process.env.RIFA_API_BIN;
  const target = cargoTargetDir();
  run("cargo", ["build", "-p", "rifa-api", "--bin", "rifa-api"], { cwd: REPO, env: { ...process.env, CARGO_TARGET_DIR: target } });
  return join(target, "debug/rifa-api");
}

/** The site's server (server.mjs: Next, and the proxy to the API named at start). */
export function startSite(port: number, apiOrigin: string, stdio: "inherit" | "ignore" = "inherit"): ChildProcess {
  return spawn(process.execPath, ["server.mjs"], {
    cwd: FRONTEND,
    env: { ...process.env, RIFA_API_ORIGIN: apiOrigin, WEB_HOST: "127.0.0.1", WEB_PORT: String(port), NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    stdio: ["ignore", stdio, stdio],
  });
}

const children: ChildProcess[] = [];
let dataDir = "";

export default async function setup(project: TestProject) {
  ensureChromium();
  const binary = apiBinary();
  dataDir = mkdtempSync(join(tmpdir(), "rifa-e2e-"));
  const apiPort = await freePort();
  const apiURL = `http://127.0.0.1:${apiPort}`;
  // One build serves any API: server.mjs reads RIFA_API_ORIGIN when it starts.
  run(join(FRONTEND, "node_modules/.bin/next"), ["build"], {
    cwd: FRONTEND,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const api = spawn(binary, ["serve"], {
    cwd: dataDir,
    env: {
      ...process.env,
      RIFA_DATA_DIR: dataDir,
      RIFA_BIND: `127.0.0.1:${apiPort}`,
      RIFA_BOOTSTRAP_ADMIN: "true",
      RIFA_DEMO_DATA: "true",
      RIFA_LOOKUPS_PER_MINUTE: "1000",
      RIFA_PURCHASES_PER_MINUTE: "1000",
      RIFA_LOGINS_PER_MINUTE: "1000",
      // As in `make run`: the site is the API's one proxy.
      RIFA_TRUST_PROXY: "true",
      RIFA_LOG_FORMAT: "json",
      RUST_LOG: "warn",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(api);
  await waitFor(`${apiURL}/healthz`, api, 120_000);
  // The first admin's login waits in this file until its first sign-in (never in the logs).
  const login = readFileSync(join(dataDir, "first-admin-password"), "utf8");
  const password = /^password: (\S+)$/m.exec(login)?.[1];
  const username = /^username: (\S+)$/m.exec(login)?.[1] ?? "admin";
  if (!password) throw new Error(`no first admin's login in ${dataDir}/first-admin-password`);
  log(`API on ${apiURL} (data in ${dataDir})`);

  // A second, non-privileged admin for the permission tests (the CLI reads the password on stdin).
  const operatorUsername = "operador";
  const operatorPassword = "operador-clave-segura-123";
  const created = spawnSync(binary, ["create-admin", "--username", operatorUsername], {
    cwd: dataDir,
    input: operatorPassword,
    env: { ...process.env, RIFA_DATA_DIR: dataDir, DATABASE_URL: "", RUST_LOG: "warn" },
  });
  if (created.status !== 0) throw new Error(`create-admin failed: ${created.stderr?.toString()}`);

  const webPort = await freePort();
  const baseURL = `http://127.0.0.1:${webPort}`;
  const web = startSite(webPort, apiURL);
  children.push(web);
  await waitFor(`${baseURL}/api/raffles`, web, 120_000);
  log(`site on ${baseURL}`);

  project.provide("baseURL", baseURL);
  project.provide("apiURL", apiURL);
  project.provide("adminUsername", username);
  project.provide("adminPassword", password);
  project.provide("operatorUsername", operatorUsername);
  project.provide("operatorPassword", operatorPassword);
  project.provide("apiBinary", binary);
  project.provide("dataDir", dataDir);

  return async () => {
    for (const child of children.reverse()) {
      if (child.exitCode === null) child.kill("SIGTERM");
    }
    await new Promise((r) => setTimeout(r, 300));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
