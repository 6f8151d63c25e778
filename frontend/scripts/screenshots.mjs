// Screenshots of the main pages at phone (360 px) and desktop (1280 px) widths into artefacts/.
// Usage: node scripts/screenshots.mjs [baseUrl] [raffleId]
import { mkdir } from "node:fs/promises";
import { chromium } from "playwright-core";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const raffleId = process.argv[3] ?? "2";
const out = new URL("../artefacts/screenshots/", import.meta.url).pathname;
await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const pages = [
  ["home", "/"],
  ["sorteos", "/sorteos"],
  ["sorteo", `/sorteo/${raffleId}`],
  ["terminos", "/terminos-y-condiciones"],
  ["404", "/no-existe"],
];
for (const [width, height, label] of [[360, 780, "phone"], [1280, 900, "desktop"]]) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  for (const [name, path] of pages) {
    await page.goto(base + path, { waitUntil: "networkidle" });
    await page.screenshot({ path: `${out}${name}-${label}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    console.log(`${name}-${label}: overflow ${overflow}px`);
  }
  await context.close();
}
await browser.close();
