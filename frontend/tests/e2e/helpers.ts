import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";

export const baseURL = () => inject("baseURL");
export const apiURL = () => inject("apiURL");

/**
 * A new raffle's first prize for raffles made through the API: a raffle goes on sale only with
 * one. A drand round far past any test's sales close.
 */
export const FIRST_PRIZE = { title: "Premio de prueba", source: { kind: "beacon", round: 999_000_000 } } as const;

export const ARTEFACTS = resolve(import.meta.dirname, "../../artefacts");

/** Debian's chromium with the flags of the developer guide (no downloads, no background traffic). */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      ...extraArgs,
    ],
  });
}

export async function newPage(browser: Browser, width = 390, height = 844): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: baseURL() });
  // A page load renders on the server and hydrates a large bundle: on a busy machine that alone
  // can pass Playwright's 30 s default.
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  return { context, page };
}

/**
 * A PNG under artefacts/screenshots. Full page by default, taken from the top (a sticky header
 * would otherwise show where the page happened to be scrolled) and scrolled back afterwards;
 * `fullPage: false` keeps what is on screen (dialogs, drawers, toasts).
 */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  const dir = resolve(ARTEFACTS, "screenshots");
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, `${name}.png`);
  if (!fullPage) {
    await page.screenshot({ path });
    return;
  }
  const y = await page.evaluate(() => {
    const at = window.scrollY;
    window.scrollTo({ top: 0, behavior: "instant" });
    return at;
  });
  await page.screenshot({ path, fullPage: true });
  await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
}

/** Serious or critical axe violations of the page (WCAG 2 A/AA rules). */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")})`);
}

/**
 * Presses Escape on the dialog `testId` once it holds the focus: a dialog registers as the top
 * layer when it mounts, and an Escape pressed before that (a slow machine) dismisses the dialog
 * beneath it instead.
 */
export async function dismissDialog(page: Page, testId: string) {
  const dialog = page.getByTestId(testId);
  await dialog.waitFor();
  await page.waitForFunction((id) => document.activeElement?.closest(`[data-testid="${id}"]`) != null, testId);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
}

export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** A tiny valid PNG for the proof upload. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** Who buys through the API: the per-person allowance counts the ID, the e-mail and the phone. */
export interface ApiBuyer {
  name: string;
  id: string;
  email: string;
  phone: string;
}

/** Posts the site's purchase form straight to the API as `buyer`, paying with the first method on offer. */
export async function postPurchase(raffleId: number, numbers: number[], total: string, buyer: ApiBuyer): Promise<Response> {
  const methods = (await (await fetch(`${apiURL()}/api/payment-methods`)).json()) as { id: number }[];
  const form = new FormData();
  for (const [k, v] of Object.entries({
    customerName: buyer.name,
    customerId: buyer.id,
    customerEmail: buyer.email,
    customerPhone: buyer.phone,
    customerCountry: "venezuela",
    paymentMethod: String(methods[0]?.id),
    raffleId: String(raffleId),
    ticketNumbers: JSON.stringify(numbers),
    totalAmount: total,
    discountApplied: "0",
    acceptTerms: "true",
  })) {
    form.set(k, v);
  }
  return fetch(`${apiURL()}/api/raffles/${raffleId}/purchase`, { method: "POST", body: form });
}

/** Buys numbers straight through the API (another buyer racing the page). */
export async function buyThroughApi(raffleId: number, numbers: number[], total: string) {
  const response = await postPurchase(raffleId, numbers, total, {
    name: "Otro Comprador",
    id: "V99887766",
    email: `otro-${Date.now()}@example.com`,
    phone: "04149998877",
  });
  if (response.status !== 201) throw new Error(`purchase through the API: ${response.status} ${await response.text()}`);
}
