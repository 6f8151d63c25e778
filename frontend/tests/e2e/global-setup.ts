import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
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

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number) {
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

/** Debian's chromium, installed when missing (never a browser download). */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  log("chromium is missing: apt-get install -y chromium");
  run("apt-get", ["update", "-qq"], { cwd: REPO });
  run("apt-get", ["install", "-y", "-qq", "chromium"], { cwd: REPO, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

/** The API binary: RIFA_API_BIN, or a debug build of the workspace into the shared cache. */
function apiBinary(): string {
  if (process.env.RIFA_API_BIN) return process.env.RIFA_API_BIN;
  const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache/rifa/target");
  run("cargo", ["build", "-p", "rifa-api"], { cwd: REPO, env: { ...process.env, CARGO_TARGET_DIR: target } });
  return join(target, "debug/rifa-api");
}

const children: ChildProcess[] = [];
let dataDir = "";

export default async function setup(project: TestProject) {
  ensureChromium();
  const binary = apiBinary();
  dataDir = mkdtempSync(join(tmpdir(), "rifa-e2e-"));
  const apiPort = await freePort();
  const apiURL = `http://127.0.0.1:${apiPort}`;
  // Next bakes the /api, /ws and /uploads rewrites into the build: build for this API.
  run(join(FRONTEND, "node_modules/.bin/next"), ["build"], {
    cwd: FRONTEND,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", RIFA_API_ORIGIN: apiURL },
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
      RIFA_LOG_FORMAT: "json",
      RUST_LOG: "warn",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(api);
  let apiOut = "";
  api.stdout?.on("data", (chunk: Buffer) => (apiOut += chunk.toString()));
  await waitFor(`${apiURL}/healthz`, api, 60_000);
  const deadline = Date.now() + 10_000;
  while (!/password:\s*(\S+)/.test(apiOut) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const password = /password:\s*(\S+)/.exec(apiOut)?.[1];
  const username = /username:\s*(\S+)/.exec(apiOut)?.[1] ?? "admin";
  if (!password) throw new Error(`the API printed no admin password:\n${apiOut}`);
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
  const web = spawn(join(FRONTEND, "node_modules/.bin/next"), ["start", "--hostname", "127.0.0.1", "--port", String(webPort)], {
    cwd: FRONTEND,
    env: { ...process.env, RIFA_API_ORIGIN: apiURL, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(web);
  await waitFor(`${baseURL}/api/raffles`, web, 60_000);
  log(`site on ${baseURL}`);

  project.provide("baseURL", baseURL);
  project.provide("apiURL", apiURL);
  project.provide("adminUsername", username);
  project.provide("adminPassword", password);
  project.provide("operatorUsername", operatorUsername);
  project.provide("operatorPassword", operatorPassword);

  return async () => {
    for (const child of children.reverse()) {
      if (child.exitCode === null) child.kill("SIGTERM");
    }
    await new Promise((r) => setTimeout(r, 300));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
