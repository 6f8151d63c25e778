// Browser tests of the verifiable draw (issue 15, decision 0020) on the real API and site that
// tests/e2e/global-setup.ts starts. One 999-number raffle goes through the whole draw through the
// admin API: two lottery prizes, purchases approved, sales closed by moving the draw date back and
// the list frozen. Both results are recorded in the admin panel, each after the confirmation that
// shows what it decides. The pages are then checked as buyers and the admin see them, in both
// languages at a phone's and a desktop's width.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import type { AdminDrawView, PublishedLedger } from "@/lib/api/types";
import { adminFetch, admin, pageText, withAdminSession, withLanguage, type Lang } from "./first-use-helpers";
import { ARTEFACTS, apiURL, horizontalOverflow, launch, newPage, postPurchase, screenshot, seriousViolations, type ApiBuyer } from "./helpers";

let browser: Browser;

const RUN = Date.now() % 1_000_000;
const SIZES = [
  [390, 844],
  [1440, 900],
] as const;
const COMBINATIONS = SIZES.flatMap((size) => (["es", "en"] as const).map((lang) => [lang, size] as const));

/** The day before today (UTC): the raffle's draw, so sales are closed once the raffle is moved to it. */
const DRAW_DAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/** Two days ago: the day the lottery is moved to once it "has drawn" (see `lotteriesHaveDrawn`). */
const LOTTERY_DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const RAFFLE = {
  title: `Rifa verificable ${RUN}`,
  description: "Sorteo de las pruebas del sorteo verificable",
  price: 2,
  maxTickets: 999,
  maxTicketsPerPurchase: 10,
  drawDate: "2030-06-15",
  status: "available",
};
/** The Táchira's draw the night after the raffle's first draw day: after its sales close. */
/**
 * A week to record its result (the most a lottery may have): the lottery is moved two days back
 * once it "has drawn", and its result must still be in time, or its fallback drand round would decide.
 */
const LOTTERY = {
  kind: "lottery",
  lotteryName: "Lotería del Táchira",
  drawDate: "2030-06-16",
  drawTime: "21:00",
  timeZone: "America/Caracas",
  sourceUrl: "https://loteria.example/resultados",
  deadlineHours: 168,
} as const;
const PRIZES = [
  { title: "Moto 150 cc", description: "Una moto nueva, con casco y papeles.", image: null, source: LOTTERY },
  { title: "Televisor 55 pulgadas", description: "", image: null, source: LOTTERY },
];
/**
 * New raffles are drawn by `rifa-among-sold-v2`: the result's last 3 digits (a 999-number raffle)
 * modulo the count of sold numbers still in play pick the winner by place among them, in order.
 * Sold: 0046, 0500 (María), 0120, 0777 (Luis). Prize 1's result ends in 046: 46 mod 4 = 2, the
 * third of 0046, 0120, 0500, 0777, María's 0500 wins. Prize 2's ends in 650: 650 mod 3 = 2, the
 * third of 0046, 0120, 0777, Luis's 0777 wins.
 */
const RESULTS = ["12-34-5046", "98 7650"];

let raffleId = 0;
/** The purchases' references: what a buyer types on the verification page. */
let maria = "";
let luis = "";
let root = "";

let buyers = 0;
/** Buys `numbers` as a new person and approves the purchase; its reference. */
async function buy(numbers: number[], name: string): Promise<string> {
  const n = ++buyers;
  const buyer: ApiBuyer = { name, id: `V${RUN}${n}`, email: `sorteo-${RUN}-${n}@example.com`, phone: `0414${String(RUN * 10 + n).slice(-7).padStart(7, "0")}` };
  const quote = (await (await fetch(`${apiURL()}/api/raffles/${raffleId}/quote?count=${numbers.length}`)).json()) as { total: string };
  const response = await postPurchase(raffleId, numbers, quote.total, buyer);
  if (response.status !== 201) throw new Error(`purchase: ${response.status} ${await response.text()}`);
  const { purchase } = (await response.json()) as { purchase: { id: number; reference: string } };
  await adminFetch(`/api/admin/purchases/${purchase.id}/status`, { method: "PUT", body: JSON.stringify({ status: "approved" }) });
  return purchase.reference;
}

/**
 * Moves the raffle's lotteries to two days ago, as if they had drawn, and its freeze to three days
 * ago, before them, as it happened in a real raffle: the time passing that the running API cannot
 * wait for. The prizes' and the ledger's locks are lifted around this one change.
 */
function lotteriesHaveDrawn(raffle: number) {
  const db = new DatabaseSync(join(inject("dataDir"), "rifa.db"));
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    const trigger = (name: string) => (db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(name) as { sql: string }).sql;
    const [prizesLock, ledgerLock] = [trigger("raffle_prizes_locked_update"), trigger("draw_ledgers_append_only_update")];
    const frozenAt = new Date(Date.now() - 3 * 86_400_000).toISOString();
    db.exec(
      `BEGIN IMMEDIATE; DROP TRIGGER raffle_prizes_locked_update; DROP TRIGGER draw_ledgers_append_only_update;
       UPDATE raffle_prizes SET lottery_draw_date = '${LOTTERY_DAY}' WHERE raffle_id = ${raffle} AND source_kind = 'lottery';
       UPDATE draw_ledgers SET frozen_at = '${frozenAt}' WHERE raffle_id = ${raffle};
       ${prizesLock}; ${ledgerLock}; COMMIT;`,
    );
  } finally {
    db.close();
  }
}

/** Sales close (the draw date moves to yesterday), the list is frozen and the lottery draws. */
async function closeAndFreeze() {
  await adminFetch(`/api/admin/raffles/${raffleId}`, { method: "PUT", body: JSON.stringify({ ...RAFFLE, drawDate: DRAW_DAY }) });
  const frozen = await adminFetch<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw/freeze`, { method: "POST" });
  root = frozen.commitment!.root;
  lotteriesHaveDrawn(raffleId);
}

/**
 * What the panel's tests leave undrawn is drawn through the API, in order (the panel records both
 * results; this keeps the pages' tests apart from a failure there).
 */
async function drawWhatIsLeft() {
  let view = await adminFetch<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw`);
  if (!view.commitment) {
    await closeAndFreeze();
    view = await adminFetch<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw`);
  }
  root = view.commitment!.root;
  const prizes = [...view.prizes].sort((a, b) => a.position - b.position);
  for (const [i, prize] of prizes.entries()) {
    if (prize.draw || prize.results.length > 0) continue;
    await adminFetch(`/api/admin/raffles/${raffleId}/prizes/${prize.id}/result`, {
      method: "POST",
      body: JSON.stringify({ kind: "lottery", result: RESULTS[i], publishedOn: LOTTERY_DAY, officialUrl: LOTTERY.sourceUrl }),
    });
  }
}

/**
 * What the confirmation says prize `position`'s result decides: its winning number and the
 * winner's public name. Prize 1's leaves prize 2 waiting for its own lottery's result, not yet recorded.
 */
function expectedPreview(lang: Lang, position: 1 | 2): string[] {
  const [title, number, name] = position === 1 ? [PRIZES[0]!.title, "0500", "María G."] : [PRIZES[1]!.title, "0777", "Luis P."];
  const wins = lang === "es" ? `Premio ${position} «${title}»: gana el ${number} (${name})` : `Prize ${position} “${title}”: number ${number} wins (${name})`;
  if (position === 2) return [wins];
  const next = PRIZES[1]!.title;
  return [wins, lang === "es" ? `Premio 2 «${next}»: espera el resultado de su lotería` : `Prize 2 “${next}”: waits for its lottery's result`];
}

/** The admin panel's draw dialog of the raffle, signed in as the admin. */
async function openDrawPanel(context: BrowserContext, page: Page, lang: Lang): Promise<Locator> {
  await withAdminSession(context);
  await page.goto("/admin/dashboard");
  await page.getByRole("tab", { name: lang === "es" ? "Sorteos" : "Raffles" }).click();
  await page.getByRole("button", { name: lang === "es" ? `Premios y sorteo de ${RAFFLE.title}` : `Prizes and draw of ${RAFFLE.title}` }).click();
  const dialog = page.getByTestId("draw-dialog");
  await dialog.getByTestId("commitment-root").waitFor();
  return dialog;
}

/** Enters prize `position`'s result in the panel and asks to record it: the confirmation it opens. */
async function enterResult(page: Page, dialog: Locator, position: 1 | 2): Promise<Locator> {
  await dialog.getByTestId(`result-input-${position}`).fill(RESULTS[position - 1]!);
  await dialog.getByTestId(`record-result-${position}`).click();
  const confirm = page.getByTestId("result-confirm-dialog");
  await confirm.waitFor();
  return confirm;
}

/** A page in one language at one size; the page's script errors are collected. */
async function pageIn(lang: Lang, width: number, height: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { context, page } = await newPage(browser, width, height);
  await withLanguage(context, lang);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** A message key shown instead of its text ("draw.section.title"): a text missing in that language. */
const MESSAGE_KEY = /\b(?:draw|admin\.draw)\.[a-zA-Z]+\.[a-zA-Z.]+/;

/** What every screenshot's page must hold: nothing wider than the screen, every text translated. */
async function looksRight(page: Page) {
  expect(await horizontalOverflow(page)).toBe(0);
  expect(await pageText(page)).not.toMatch(MESSAGE_KEY);
}

/**
 * A PNG of one element under artefacts/screenshots, its collapsed details opened to show what
 * they hold. Cut from the page taken from the top: an element's own screenshot scrolls to it, and
 * the sticky header then lands in the middle of it.
 */
async function shotOf(locator: Locator, name: string) {
  const page = locator.page();
  await locator.evaluate((el) => el.querySelectorAll("details").forEach((d) => (d.open = true)));
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  const clip = await locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
  });
  await page.screenshot({ path: resolve(ARTEFACTS, "screenshots", `${name}.png`), fullPage: true, clip });
}

/** The buyer's check of their own numbers on the verification page. */
async function checkReference(page: Page, reference: string, lang: Lang) {
  await page.getByLabel(lang === "es" ? "Referencia de tu compra" : "Your purchase reference").fill(reference);
  await page.getByRole("button", { name: lang === "es" ? "Buscar mis números" : "Find my numbers" }).click();
  return page.getByTestId("inclusion-result");
}

/** Serves the published ledger without its first entry (0046), as a copy tampered after the freeze would. */
async function tamperLedger(page: Page) {
  await page.route(`**/api/raffles/${raffleId}/draw/ledger`, async (route) => {
    const response = await route.fetch();
    const ledger = (await response.json()) as PublishedLedger;
    ledger.entries.shift();
    await route.fulfill({ response, json: ledger });
  });
}

beforeAll(async () => {
  browser = await launch();
  raffleId = (await adminFetch<{ id: number }>("/api/admin/raffles", { method: "POST", body: JSON.stringify({ ...RAFFLE, prizes: PRIZES }) })).id;
  maria = await buy([46, 500], "María González");
  luis = await buy([120, 777], "Luis Pérez");
});

afterAll(async () => {
  // Off the public lists (other files pick raffles on sale from them); with purchases, it cannot be deleted.
  if (raffleId) await adminFetch(`/api/admin/raffles/${raffleId}`, { method: "PUT", body: JSON.stringify({ ...RAFFLE, drawDate: DRAW_DAY, status: "inactive" }) });
  await browser?.close();
});

describe("before the draw", () => {
  it("the raffle page shows the prizes, where each number comes from and the rule, and that the list is not frozen yet", async () => {
    const { context, page, errors } = await pageIn("es", 390, 844);
    await page.goto(`/sorteo/${raffleId}`);
    const section = page.getByTestId("raffle-draw");
    await section.waitFor();
    expect(await section.getByRole("heading", { level: 2 }).textContent()).toBe("Premios y reglas del sorteo");
    expect(await page.getByTestId("prize-1").textContent()).toContain("Moto 150 cc");
    expect(await page.getByTestId("prize-1").textContent()).toContain("Lotería del Táchira, sorteo del");
    expect(await page.getByTestId("prize-2").textContent()).toContain("Todavía no se ha sorteado.");
    const rule = (await page.getByTestId("draw-rule").textContent()) ?? "";
    expect(rule).toContain("Los números vendidos que siguen en juego");
    expect(rule).toContain("Los últimos 3 dígitos del resultado oficial");
    expect(rule).toContain("número al azar de respaldo");
    expect(await page.getByTestId("draw-not-frozen").textContent()).toContain("se congelará");
    expect(await seriousViolations(page)).toEqual([]);
    await looksRight(page);
    await shotOf(section, "draw-section-before-es-390");

    // The published file does not exist yet (409 draw_not_frozen): the page says when it will.
    await page.goto(`/sorteo/${raffleId}/verificacion`);
    expect(await page.getByTestId("ledger-unavailable").textContent()).toContain("La lista todavía no está congelada");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("recording the results in the panel", () => {
  beforeAll(closeAndFreeze);

  it("shows what a result decides and records nothing until it is confirmed, at a phone's and a desktop's width, in Spanish and English", async () => {
    for (const [lang, [width, height]] of COMBINATIONS) {
      const { context, page, errors } = await pageIn(lang, width, height);
      const dialog = await openDrawPanel(context, page, lang);
      const confirm = await enterResult(page, dialog, 1);
      expect(await confirm.getByTestId("result-preview").getByRole("listitem").allTextContents()).toEqual(expectedPreview(lang, 1));
      expect(await confirm.textContent()).toContain(lang === "es" ? "Un resultado registrado no se puede cambiar." : "A recorded result cannot be changed.");
      expect(await confirm.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      expect(await pageText(page)).not.toMatch(MESSAGE_KEY);
      if (lang === "es" && width === 390) expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `draw-admin-confirm-${lang}-${width}`, { fullPage: false });
      await confirm.getByRole("button", { name: lang === "es" ? "Volver" : "Back" }).click();
      await confirm.waitFor({ state: "detached" });
      expect(await dialog.getByTestId("result-input-1").inputValue()).toBe(RESULTS[0]);
      expect(errors).toEqual([]);
      await context.close();
    }
    const view = await adminFetch<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw`);
    expect(view.prizes.flatMap((p) => p.results)).toEqual([]);
    expect(view.prizes.some((p) => p.draw)).toBe(false);
  });

  it("records each result once confirmed, in order", async () => {
    const { context, page, errors } = await pageIn("es", 1280, 900);
    const dialog = await openDrawPanel(context, page, "es");
    for (const position of [1, 2] as const) {
      const confirm = await enterResult(page, dialog, position);
      expect(await confirm.getByTestId("result-preview").getByRole("listitem").allTextContents()).toEqual(expectedPreview("es", position));
      await confirm.getByRole("button", { name: "Confirmar y registrar" }).click();
      await confirm.waitFor({ state: "detached" });
      await page.locator("[data-sonner-toast]").filter({ hasText: "Resultado registrado" }).first().waitFor();
      await dialog.getByTestId(`winning-number-${position}`).waitFor();
      expect(await dialog.getByTestId(`winning-number-${position}`).textContent()).toBe(position === 1 ? "0500" : "0777");
    }
    const view = await adminFetch<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw`);
    const recorded = [...view.prizes].sort((a, b) => a.position - b.position).map((p) => p.draw?.result);
    expect(recorded).toEqual(RESULTS.map((result) => ({ kind: "lottery", result, publishedOn: LOTTERY_DAY, officialUrl: LOTTERY.sourceUrl })));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("after the draw", () => {
  beforeAll(drawWhatIsLeft);

  it("the raffle page shows each result, winning number and winner", async () => {
    const { context, page, errors } = await pageIn("es", 1440, 900);
    await page.goto(`/sorteo/${raffleId}`);
    await page.getByTestId("raffle-draw").waitFor();
    expect(await page.getByTestId("winning-number-1").textContent()).toBe("0500");
    expect(await page.getByTestId("winning-number-2").textContent()).toBe("0777");
    expect(await page.getByTestId("prize-result-1").textContent()).toContain("María G. · Venezuela");
    expect(await page.getByTestId("prize-result-2").textContent()).toContain("Luis P. · Venezuela");
    expect(await page.getByTestId("prize-result-1").textContent()).toContain("12-34-5046");
    await page.getByTestId("prize-result-2").getByText("Cómo se llegó a este número").click();
    const steps = (await page.getByTestId("prize-result-2").textContent()) ?? "";
    expect(steps).toContain("Quedan 3 números vendidos en juego.");
    expect(steps).toContain("Dividido entre 3, el valor deja un resto de 2: gana el número en ese lugar de la lista ordenada de números en juego (contando desde 0), el 0777.");
    expect(await page.getByTestId("draw-root").textContent()).toBe(root);
    await page.getByRole("link", { name: "Comprobar el sorteo tú mismo" }).click();
    await page.waitForURL(`**/sorteo/${raffleId}/verificacion`);
    await page.getByTestId("root-status").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the verification page confirms the list, each winner and a buyer's numbers", async () => {
    const { context, page, errors } = await pageIn("es", 390, 844);
    await page.goto(`/sorteo/${raffleId}/verificacion`);
    const status = page.getByTestId("root-status");
    await status.waitFor();
    expect(await status.getAttribute("data-ok")).toBe("true");
    expect(await page.getByTestId("root-computed").textContent()).toBe(root);
    for (const position of [1, 2]) expect(await page.getByTestId(`prize-verdict-${position}`).getAttribute("data-ok")).toBe("true");
    // The list was frozen before each source of each prize drew: its lottery and its round.
    for (const position of [1, 2]) {
      const order = (await page.getByTestId(`prize-time-order-${position}`).textContent()) ?? "";
      expect(order.match(/La lista se congeló/g)?.length, order).toBe(2);
      expect(order).not.toContain("No vale");
    }
    expect(await page.getByTestId("prize-verdict-1").textContent()).toContain("el 0500, es el que da la regla");

    const mine = await checkReference(page, maria.toLowerCase(), "es");
    await mine.waitFor();
    expect(await mine.getAttribute("data-ok")).toBe("true");
    const numbers = mine.getByTestId("my-number");
    expect(await numbers.allTextContents()).toEqual(["0046en la lista", "0500en la listaGanó el premio 1"]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a buyer arriving from their e-mail's link sees their numbers checked, as the offline command does", async () => {
    const { context, page, errors } = await pageIn("es", 390, 844);
    const [ledgerResponse] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith(`/api/raffles/${raffleId}/draw/ledger`)),
      page.goto(`/sorteo/${raffleId}/verificacion?ref=${maria}`),
    ]);
    const mine = page.getByTestId("inclusion-result");
    await mine.waitFor();
    expect(await mine.getAttribute("data-ok")).toBe("true");
    expect(await mine.getByTestId("my-number").allTextContents()).toEqual(["0046en la lista", "0500en la listaGanó el premio 1"]);
    expect(await page.getByTestId("root-status").getAttribute("data-ok")).toBe("true");

    // The same file, checked by the command a third party runs, gives the same verdicts.
    const dir = mkdtempSync(join(tmpdir(), "rifa-draw-"));
    const file = join(dir, "sorteo.json");
    writeFileSync(file, await ledgerResponse.text());
    const offline = spawnSync(inject("apiBinary"), ["verify-draw", file, "--reference", maria], { encoding: "utf8" });
    rmSync(dir, { recursive: true, force: true });
    expect(offline.status, offline.stdout + offline.stderr).toBe(0);
    expect(offline.stdout).toContain("✓ La huella de la lista (4 números vendidos) coincide");
    expect(offline.stdout).toContain("✓ Premio 1: el resultado y la regla dan el número 0500, el publicado.");
    expect(offline.stdout).toContain("✓ Premio 2: el resultado y la regla dan el número 0777, el publicado.");
    expect(offline.stdout).toContain("0046, 0500");

    // Each drawn prize links its certificate, a PDF in the reader's language.
    await page.goto(`/sorteo/${raffleId}`);
    const href = await page.getByTestId("certificate-1").getAttribute("href");
    const certificate = await page.request.get(href!);
    expect(certificate.status()).toBe(200);
    expect(certificate.headers()["content-type"]).toBe("application/pdf");
    expect((await certificate.body()).subarray(0, 5).toString()).toBe("%PDF-");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the verification page catches a ledger changed after the freeze", async () => {
    const { context, page, errors } = await pageIn("es", 390, 844);
    await tamperLedger(page);
    await page.goto(`/sorteo/${raffleId}/verificacion`);
    const status = page.getByTestId("root-status");
    await status.waitFor();
    expect(await status.getAttribute("data-ok")).toBe("false");
    expect(await status.textContent()).toContain("No coincide");
    expect(await page.getByTestId("root-published").textContent()).toBe(root);
    expect(await page.getByTestId("root-computed").textContent()).not.toBe(root);
    // Without 0046, 46 mod 3 = 1 still gives prize 1 to 0500, but prize 2 then goes to 0120
    // (650 mod 2 = 0 among 0120, 0777), not the published 0777.
    expect(await page.getByTestId("prize-verdict-1").getAttribute("data-ok")).toBe("true");
    expect(await page.getByTestId("prize-verdict-2").getAttribute("data-ok")).toBe("false");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the home page shows the winners, each with the way to check its draw", async () => {
    const { context, page, errors } = await pageIn("es", 390, 844);
    await page.goto("/");
    const cards = page.locator("#ganadores").getByTestId("winner-card").filter({ hasText: RAFFLE.title });
    await cards.first().waitFor();
    const texts = await cards.allTextContents();
    expect(texts).toHaveLength(2);
    // Newest first: prize 2 was drawn last.
    expect(texts[0]).toContain("Televisor 55 pulgadas");
    expect(texts[0]).toContain("0777");
    expect(texts[1]).toContain("0500");
    expect(texts[1]).toContain("María G. · Venezuela");
    await cards.first().getByRole("link", { name: "Ver cómo se eligió" }).click();
    await page.waitForURL(`**/sorteo/${raffleId}/verificacion`);
    expect(await page.getByTestId("prize-verdict-2").getAttribute("data-ok")).toBe("true");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the admin panel shows the commitment, the winners and the days to claim, and marks a prize delivered", async () => {
    const { context, page, errors } = await pageIn("es", 1280, 900);
    await page.goto("/admin");
    await page.waitForURL("**/admin/login");
    await page.getByLabel("Usuario").fill(admin().username);
    await page.getByLabel("Contraseña").fill(admin().password);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.waitForURL("**/admin/dashboard");
    await page.getByRole("tab", { name: "Sorteos" }).click();
    await page.getByRole("button", { name: `Premios y sorteo de ${RAFFLE.title}` }).click();
    const dialog = page.getByTestId("draw-dialog");
    expect(await dialog.getByTestId("commitment-root").textContent()).toBe(root);
    expect(await dialog.getByTestId("commitment-size").textContent()).toBe("4");
    expect(await dialog.getByTestId("winning-number-1").textContent()).toBe("0500");
    expect(await dialog.getByTestId("winning-number-2").textContent()).toBe("0777");
    const winner = (await dialog.getByTestId("winner-1").textContent()) ?? "";
    for (const text of ["María González", "María G.", maria]) expect(winner).toContain(text);
    expect(await dialog.getByTestId("winner-2").textContent()).toContain(luis);
    expect(await dialog.getByTestId("days-left-1").textContent()).toBe("Quedan 30 días");

    await dialog.getByTestId("mark-delivered-1").click();
    await page.locator("[data-sonner-toast]").filter({ hasText: "Premio marcado como entregado" }).first().waitFor();
    expect(await dialog.getByTestId("delivered-1").textContent()).toContain("Entregado el");
    expect(await dialog.getByTestId("days-left-1").count()).toBe(0);
    expect(await dialog.getByTestId("days-left-2").textContent()).toBe("Quedan 30 días");
    const claims = await adminFetch<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw`);
    expect(claims.prizes.find((p) => p.position === 1)?.claim?.deliveredAt).toBeTruthy();
    expect(errors).toEqual([]);
    await context.close();
  });

  describe("at a phone's and a desktop's width, in Spanish and English", () => {
    it("the raffle page's draw section", async () => {
      for (const [lang, [width, height]] of COMBINATIONS) {
        const { context, page, errors } = await pageIn(lang, width, height);
        await page.goto(`/sorteo/${raffleId}`);
        const section = page.getByTestId("raffle-draw");
        await section.waitFor();
        expect(await page.getByTestId("prize-result-1").textContent()).toContain(lang === "es" ? "Número ganador:" : "Winning number:");
        await shotOf(section, `draw-section-${lang}-${width}`);
        await looksRight(page);
        expect(errors).toEqual([]);
        await context.close();
      }
    });

    it("the verification page, confirmed and tampered", async () => {
      for (const [lang, [width, height]] of COMBINATIONS) {
        for (const tampered of [false, true]) {
          const { context, page, errors } = await pageIn(lang, width, height);
          if (tampered) await tamperLedger(page);
          await page.goto(`/sorteo/${raffleId}/verificacion`);
          await page.getByTestId("root-status").waitFor();
          expect(await page.getByTestId("root-status").getAttribute("data-ok")).toBe(String(!tampered));
          if (!tampered) await (await checkReference(page, luis, lang)).waitFor();
          await page.locator("details").evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
          await screenshot(page, `draw-verify${tampered ? "-tampered" : ""}-${lang}-${width}`);
          await looksRight(page);
          expect(errors).toEqual([]);
          await context.close();
        }
      }
    });

    it("the home page's winners", async () => {
      for (const [lang, [width, height]] of COMBINATIONS) {
        const { context, page, errors } = await pageIn(lang, width, height);
        await page.goto("/");
        const winners = page.locator("#ganadores");
        await winners.getByTestId("winner-card").first().waitFor();
        await shotOf(winners, `draw-home-winners-${lang}-${width}`);
        await looksRight(page);
        expect(errors).toEqual([]);
        await context.close();
      }
    });

    it("the admin panel's draw dialog", async () => {
      for (const [lang, [width, height]] of COMBINATIONS) {
        const { context, page, errors } = await pageIn(lang, width, height);
        const dialog = await openDrawPanel(context, page, lang);
        expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
        expect(await pageText(page)).not.toMatch(MESSAGE_KEY);
        // The dialog scrolls inside the screen: a screen as tall as its content shows all of it.
        const tall = await dialog.evaluate((el) => el.scrollHeight);
        await page.setViewportSize({ width, height: Math.max(height, tall + 64) });
        await dialog.screenshot({ path: resolve(ARTEFACTS, "screenshots", `draw-admin-${lang}-${width}.png`) });
        expect(errors).toEqual([]);
        await context.close();
      }
    });
  });
});
