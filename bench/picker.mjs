// The ticket picker on a phone (`bench/picker.sh`): Debian's Chromium at 390×844 with 4× CPU
// throttling on one or more raffle pages, BENCH_PICKER_RUNS visits each, each in a fresh context
// (cold cache). With several pages the visits alternate (A B A B …), so a machine whose load
// changes during the run weighs on every page alike: two builds of the site, or two raffles,
// compare fairly.
//
//   load      navigation start → the first page of numbers in the DOM, painted, and interactive
//             (painted, and the last long task over: no long task for a second after it);
//   next      "next page" clicked BENCH_PICKER_PAGES times;
//   search    "1", "12", "123" typed, one key at a time, each until its filtered page is shown;
//   random    "random 10" until the summary counts 10 numbers.
//
// Every figure is the page's own clock: from the input event's timeStamp (when the browser
// received the input, so a busy main thread counts) to the first frame after the DOM shows the
// result (requestAnimationFrame, then a user-blocking task: the frame has been produced), as INP
// counts an interaction. Playwright's round trips fall outside it.
//
// Usage: node bench/picker.mjs <outDir> <raffle page URL>...
//   BENCH_PICKER_RUNS (10), BENCH_PICKER_PAGES (5), BENCH_PICKER_CPU_RATE (4), CHROME_PATH (/usr/bin/chromium)
// Writes <outDir>/picker-runs.jsonl (one line per visit) and prints the summary as JSON.
import { appendFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";

// playwright-core is the site's devDependency: resolve it from there.
const require = createRequire(new URL("../frontend/package.json", import.meta.url));
const { chromium } = require("playwright-core");

const [outDir, ...urls] = process.argv.slice(2);
if (!outDir || urls.length === 0) throw new Error("usage: node bench/picker.mjs <outDir> <raffle page URL>...");
const RUNS = Math.max(1, Number(process.env.BENCH_PICKER_RUNS ?? 10));
const PAGES = Math.max(1, Number(process.env.BENCH_PICKER_PAGES ?? 5));
const CPU_RATE = Number(process.env.BENCH_PICKER_CPU_RATE ?? 4);
const runsFile = `${outDir}/picker-runs.jsonl`;
await writeFile(runsFile, "");

/** Runs in every document before its own scripts: the load marks and the interaction probe. */
function probe() {
  const bench = { gridAt: null, paintedAt: null, longTasks: [] };
  window.__picker = bench;
  // The frame is produced right after the animation-frame callbacks; a user-blocking task runs
  // first thereafter, before whatever else was queued meanwhile (a chunk's script, say).
  const afterPaint = () =>
    new Promise((resolve) =>
      requestAnimationFrame(() => void scheduler.postTask(() => resolve(performance.now()), { priority: "user-blocking" })),
    );
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) bench.longTasks.push([task.startTime, task.startTime + task.duration]);
  }).observe({ type: "longtask", buffered: true });
  const grid = () => document.querySelector('[data-testid="ticket-grid"]');
  const loaded = new MutationObserver(() => {
    if (!grid()?.querySelector("button")) return;
    loaded.disconnect();
    bench.gridAt = performance.now();
    void afterPaint().then((at) => (bench.paintedAt = at));
  });
  loaded.observe(document, { childList: true, subtree: true });

  /** Resolves once the page has had no long task for `quietMs`: the time the last one ended. */
  bench.settled = async (quietMs, limitMs) => {
    const started = performance.now();
    for (;;) {
      const lastEnd = Math.max(bench.paintedAt ?? Infinity, ...bench.longTasks.map(([, end]) => end));
      if (bench.paintedAt !== null && performance.now() - lastEnd >= quietMs) return lastEnd;
      if (performance.now() - started > limitMs) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const firstNumber = (selector) => {
    const text = document.querySelector(selector)?.textContent ?? "";
    const digits = /\d[\d.,\u00a0\u202f]*/.exec(text)?.[0].replace(/\D/g, "");
    return digits ? Number(digits) : null;
  };
  const done = {
    // The count line has changed with the digits, and every number shown contains them (a
    // search may also find none: then the grid is gone).
    search: (digits, before) =>
      document.getElementById("ticket-count")?.textContent !== before &&
      [...(grid()?.querySelectorAll("button") ?? [])].every((b) => (b.textContent ?? "").includes(digits)),
    page: (page) => firstNumber('[data-testid="picker-page"]') === page,
    random: (count) => firstNumber('[data-testid="picker-selected-count"]') === count,
  };

  /**
   * Arms the probe for the next `eventType` event (capture phase, before React sees it); the
   * returned promise, kept on the page, resolves with the milliseconds from that event's
   * timeStamp to the frame after `done[kind](arg)` holds.
   */
  bench.arm = (eventType, kind, arg, limitMs) => {
    const before = document.getElementById("ticket-count")?.textContent ?? "";
    let start = null;
    document.addEventListener(eventType, (event) => (start = event.timeStamp), { capture: true, once: true });
    bench.pending = new Promise((resolve) => {
      const timeout = setTimeout(() => {
        observer.disconnect();
        resolve(null);
      }, limitMs);
      const check = () => {
        if (start === null || !done[kind](arg, before)) return;
        observer.disconnect();
        clearTimeout(timeout);
        void afterPaint().then((end) => resolve(end - start));
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    });
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

async function newPage() {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.addInitScript(probe);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_RATE });
  return { context, page, cdp };
}

/** One measured interaction: arm the probe, act, and read the page's figure. */
async function timed(page, eventType, kind, arg, act) {
  await page.evaluate(([e, k, a]) => window.__picker.arm(e, k, a, 20_000), [eventType, kind, arg]);
  await act();
  const ms = await page.evaluate(() => window.__picker.pending);
  if (ms === null) throw new Error(`${kind} ${arg}: the page did not show the result within 20 s`);
  // Let what the interaction set off (a quote request, the form's chunk) finish first.
  await page.evaluate(() => window.__picker.settled(500, 10_000));
  return round(ms);
}

const round = (ms) => Math.round(ms * 10) / 10;

async function measureRun(url) {
  const { context, page } = await newPage();
  try {
    await page.goto(url, { waitUntil: "load" });
    const interactiveAt = await page.evaluate(() => window.__picker.settled(1000, 30_000));
    const marks = await page.evaluate(() => ({
      grid: window.__picker.gridAt,
      painted: window.__picker.paintedAt,
      longTasks: window.__picker.longTasks,
    }));
    if (marks.grid === null || interactiveAt === null) throw new Error("the first page of numbers never became interactive");
    const blocking = marks.longTasks.filter(([, end]) => end <= interactiveAt).reduce((sum, [start, end]) => sum + Math.max(0, end - start - 50), 0);
    const run = {
      load_grid_ms: round(marks.grid),
      load_painted_ms: round(marks.painted),
      load_interactive_ms: round(interactiveAt),
      load_blocking_ms: round(blocking),
      next: [],
      search: [],
      random10: null,
    };

    for (let shown = 2; shown <= PAGES + 1; shown++) {
      run.next.push(await timed(page, "pointerdown", "page", shown, () => page.getByTestId("picker-next").click()));
    }
    // Focusing scrolls the field into view (smoothly): let that finish before the first key.
    await page.locator("#ticket-search").focus();
    await page.waitForTimeout(1000);
    for (const digits of ["1", "12", "123"]) {
      run.search.push(await timed(page, "keydown", "search", digits, () => page.keyboard.press(digits.at(-1))));
    }
    run.random10 = await timed(page, "pointerdown", "random", 10, () => page.getByTestId("random-10").click());
    return run;
  } finally {
    await context.close();
  }
}

/** Whether the throttling holds across the navigation: a fixed loop, timed on the page. */
async function throttleCheck(url) {
  const loop = () => {
    const start = performance.now();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x = (x + i * 7) % 1_000_003;
    return [performance.now() - start, x];
  };
  const { context, page, cdp } = await newPage();
  try {
    await page.goto(url, { waitUntil: "load" });
    const [throttled] = await page.evaluate(loop);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    const [free] = await page.evaluate(loop);
    return round(throttled / free);
  } finally {
    await context.close();
  }
}

function stats(values) {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { n: sorted.length, median: round(sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2), p95: at(0.95), max: sorted.at(-1) };
}

const runs = urls.map(() => []);
let slowdown = null;
try {
  // Next renders each page on first request: one visit, unmeasured, so no run pays for it.
  for (const url of urls) await fetch(url);
  slowdown = await throttleCheck(urls[0]);
  console.error(`picker: CPU throttling ×${CPU_RATE} requested, a fixed loop ran ×${slowdown} slower after navigating`);
  for (let i = 0; i < RUNS; i++) {
    for (const [p, url] of urls.entries()) {
      const run = await measureRun(url);
      runs[p].push(run);
      await appendFile(runsFile, `${JSON.stringify({ url, ...run })}\n`);
      console.error(`picker: ${url} visit ${i + 1}/${RUNS}: load ${run.load_interactive_ms} ms, next ${run.next.join(" ")}, search ${run.search.join(" ")}, random 10 ${run.random10} ms`);
    }
  }
} finally {
  await browser.close();
}

const summary = {
  runs: RUNS,
  cpu_rate: CPU_RATE,
  measured_slowdown: slowdown,
  pages: urls.map((url, p) => ({
    url,
    load_grid_ms: stats(runs[p].map((r) => r.load_grid_ms)),
    load_painted_ms: stats(runs[p].map((r) => r.load_painted_ms)),
    load_interactive_ms: stats(runs[p].map((r) => r.load_interactive_ms)),
    load_blocking_ms: stats(runs[p].map((r) => r.load_blocking_ms)),
    next_first_ms: stats(runs[p].map((r) => r.next[0])),
    next_all_ms: stats(runs[p].flatMap((r) => r.next)),
    search_123_ms: stats(runs[p].map((r) => r.search[2])),
    search_keys_ms: stats(runs[p].flatMap((r) => r.search)),
    random10_ms: stats(runs[p].map((r) => r.random10)),
  })),
};
console.log(JSON.stringify(summary));
