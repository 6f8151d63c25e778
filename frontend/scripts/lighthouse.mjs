// Lighthouse (mobile profile) on the home and a raffle page, plus the raffle page's first-load
// JavaScript (every script the HTML loads, gzipped). Needs the site running (`make run`).
// Usage: node scripts/lighthouse.mjs [baseUrl] [raffleId]     (CHROME_PATH defaults to Debian's)
// LIGHTHOUSE_PAGES picks the pages (home,raffle); LIGHTHOUSE_OUT is where reports go
// (artefacts/lighthouse/), so a benchmark can keep its own.
// Each page is measured LIGHTHOUSE_RUNS times (default 5) and the run with the median
// performance score is reported, as Lighthouse's own guidance advises: one run on a shared
// two-core machine moves by ±10 points.
import { mkdir, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const base = (process.argv[2] ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const raffleId = process.argv[3] ?? (await firstRaffleId());
const out = process.env.LIGHTHOUSE_OUT ? `${process.env.LIGHTHOUSE_OUT.replace(/\/$/, "")}/` : new URL("../artefacts/lighthouse/", import.meta.url).pathname;
const wanted = (process.env.LIGHTHOUSE_PAGES ?? "home,raffle").split(",").map((name) => name.trim());
const pages = [["home", "/"], ["raffle", `/sorteo/${raffleId}`]].filter(([name]) => wanted.includes(name));
if (pages.length === 0) throw new Error(`LIGHTHOUSE_PAGES=${process.env.LIGHTHOUSE_PAGES}: expected home and/or raffle`);
await mkdir(out, { recursive: true });

async function firstRaffleId() {
  const raffles = await (await fetch(`${base}/api/raffles`)).json();
  return String(raffles[0]?.id ?? 1);
}

/** Sum of the gzipped sizes of the scripts a page's HTML loads (its first-load JS). */
async function firstLoadJs(path) {
  const html = await (await fetch(base + path)).text();
  // Scripts marked nomodule (the legacy polyfills) are never loaded by modern browsers.
  const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]).filter((tag) => !/\bnomodule\b/i.test(tag));
  const sources = [...new Set(tags.map((tag) => /src="([^"]+)"/.exec(tag)?.[1]).filter(Boolean))];
  let raw = 0;
  let gzip = 0;
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { scripts: sources.length, rawKB: +(raw / 1024).toFixed(1), gzipKB: +(gzip / 1024).toFixed(1) };
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5));
const results = [];
try {
  for (const [name, path] of pages) {
    // Warm the server once so the first request's compile-free start does not count.
    await fetch(base + path);
    const measured = [];
    for (let run = 0; run < runs; run++) {
      const runnerResult = await lighthouse(base + path, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
      });
      measured.push(runnerResult);
    }
    measured.sort((a, b) => a.lhr.categories.performance.score - b.lhr.categories.performance.score);
    const median = measured[Math.floor(measured.length / 2)];
    const lhr = median.lhr;
    await writeFile(`${out}${name}.json`, median.report);
    const audit = (id) => lhr.audits[id]?.displayValue ?? "";
    results.push({
      page: path,
      performance: Math.round(lhr.categories.performance.score * 100),
      runs: measured.map((r) => Math.round(r.lhr.categories.performance.score * 100)).join(" "),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      fcp: audit("first-contentful-paint"),
      lcp: audit("largest-contentful-paint"),
      tbt: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
    });
  }
} finally {
  await chrome.kill();
}
const js = await firstLoadJs(`/sorteo/${raffleId}`);
console.table(results);
console.log(`raffle page first-load JS: ${js.gzipKB} KB gzipped (${js.rawKB} KB raw, ${js.scripts} scripts)`);
await writeFile(`${out}summary.json`, JSON.stringify({ base, results, raffleFirstLoadJs: js, at: new Date().toISOString() }, null, 2));
