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
    // Budgets for a 2-core machine shared with builds (4–6× slower than idle): a flow of about ten
    // navigations takes 10–20 s idle. Tests with more work set their own (e.g. the screenshots).
    testTimeout: 120_000,
    // beforeAll hooks launch Chromium and sign in.
    hookTimeout: 180_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
