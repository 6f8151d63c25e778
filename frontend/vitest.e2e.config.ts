import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser tests: the global setup builds and starts the real API and the real Next server, then
// each file drives Debian's chromium through playwright-core.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: {
    environment: "node",
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
