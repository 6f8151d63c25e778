// Browser tests of issue 14 (holds that expire, sales that close, the buyer's own page), on the
// real API and the real site that tests/e2e/global-setup.ts starts. Written against the contract
// in docs/decisions/0016 and the site's OpenAPI snapshot before the API existed.
//
// Holds last at least a minute, so the raffles whose holds must expire are created and bought in
// beforeAll: the first test (the held raffle page) lasts until those numbers come back, and by
// then every one-minute hold of this file has expired.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { FIRST_PRIZE, PNG, apiURL, baseURL, horizontalOverflow, launch, newPage, postPurchase, screenshot, seriousViolations } from "./helpers";

let browser: Browser;

const admin = () => ({ username: inject("adminUsername"), password: inject("adminPassword") });
/** A real photo as the payment proof (the site's default raffle image). */
const JPEG = readFileSync(resolve(import.meta.dirname, "../../public/images/raffle-default.jpg"));
const RUN = Date.now() % 1_000_000;
/** Hold one minute, then the API's sweep (every 5 s) expires it; the page reads again 6 s after. */
const HOLD_MS = 60_000;

type Lang = "es" | "en";
const SIZES = [
  [390, 844],
  [1440, 900],
] as const;

// ---------------------------------------------------------------------------------------------
// The API, straight

let token = "";
async function adminToken(): Promise<string> {
  if (token) return token;
  const response = await fetch(`${apiURL()}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(admin()),
  });
  if (!response.ok) throw new Error(`admin login: ${response.status}`);
  token = ((await response.json()) as { token: string }).token;
  return token;
}

async function adminCall(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${apiURL()}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { Authorization: `Bearer ${await adminToken()}`, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

type RaffleBody = { title: string; description: string; price: number; maxTickets: number; maxTicketsPerPurchase: number; drawDate: string; status: string; holdMinutes?: number; salesCloseHoursBeforeDraw?: number; prizes: readonly (typeof FIRST_PRIZE)[] };
type Raffle = { id: number; title: string; salesOpen: boolean; salesCloseAt: string | null; holdMinutes: number };
const created: { id: number; body: RaffleBody }[] = [];

/**
 * A raffle of this file. One number a purchase, so the site tests' `smallRaffle()` (which wants
 * two) never picks it; set inactive at the end, so the home page's cards stay the demo's.
 */
async function newRaffle(name: string, fields: Partial<RaffleBody>): Promise<Raffle> {
  const body: RaffleBody = {
    title: `${name} ${RUN}`,
    description: "Sorteo de las pruebas de reservas",
    price: 2,
    maxTickets: 20,
    maxTicketsPerPurchase: 1,
    drawDate: "2030-06-15",
    status: "available",
    prizes: [FIRST_PRIZE],
    ...fields,
  };
  const response = await adminCall("/api/admin/raffles", { body });
  if (response.status !== 201) throw new Error(`raffle ${name}: ${response.status} ${await response.text()}`);
  const raffle = (await response.json()) as Raffle;
  created.push({ id: raffle.id, body });
  return raffle;
}

type Bought = { id: number; reference: string; purchaseToken: string; buyerPagePath: string; numbers: number[] };

let buyers = 0;
/** The site's purchase form, filled in by a new person each time (the per-person allowance counts ID, e-mail and phone). */
async function purchase(raffleId: number, numbers: number[], name: string): Promise<Response> {
  const n = ++buyers;
  const quoted = await fetch(`${apiURL()}/api/raffles/${raffleId}/quote?count=${numbers.length}`);
  // These raffles have no promotions: the quote is the price times the count.
  const quote = quoted.ok ? ((await quoted.json()) as { total: string }) : { total: (2 * numbers.length).toFixed(2) };
  return postPurchase(raffleId, numbers, quote.total, {
    name,
    id: `V${RUN}${String(n).padStart(3, "0")}`,
    email: `reserva-${RUN}-${n}@example.com`,
    phone: `0414${String(RUN * 1000 + n).slice(-7).padStart(7, "0")}`,
  });
}

async function buy(raffleId: number, numbers: number[], name = "Comprador Prueba"): Promise<Bought> {
  const response = await purchase(raffleId, numbers, name);
  if (response.status !== 201) throw new Error(`purchase: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { purchase: { id: number; reference: string }; purchaseToken: string; buyerPagePath: string | null };
  if (!body.buyerPagePath) throw new Error("the purchase answer has no buyerPagePath");
  return { id: body.purchase.id, reference: body.purchase.reference, purchaseToken: body.purchaseToken, buyerPagePath: body.buyerPagePath, numbers };
}

/** Request → PUT → attach, as the site does. */
async function attachProof(p: Bought) {
  const target = (await (
    await fetch(`${apiURL()}/api/objects/upload`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ filename: "pago.jpg", contentType: "image/jpeg", size: JPEG.length, purchaseId: p.id, purchaseToken: p.purchaseToken }),
    })
  ).json()) as { uploadURL: string; uploadHeaders?: Record<string, string> };
  const put = await fetch(new URL(target.uploadURL, apiURL()), { method: "PUT", headers: target.uploadHeaders ?? { "Content-Type": "image/jpeg" }, body: new Uint8Array(JPEG) });
  expect(put.ok).toBe(true);
  const attach = await fetch(`${apiURL()}/api/purchases/${p.id}/payment-proof`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ paymentProofURL: target.uploadURL, purchaseToken: p.purchaseToken }),
  });
  expect(attach.status).toBe(200);
}

async function decide(p: Bought, status: "approved" | "rejected", adminNotes: string | null = null) {
  const response = await adminCall(`/api/admin/purchases/${p.id}/status`, { method: "PUT", body: { status, adminNotes } });
  expect(response.status).toBe(200);
}

async function statusOf(p: Bought): Promise<string> {
  const response = await adminCall(`/api/admin/purchases/${p.id}`);
  return ((await response.json()) as { status: string }).status;
}

/** Until the API's sweep has expired these purchases (their hold is a minute). */
async function expired(...purchases: Bought[]) {
  await expect.poll(async () => (await Promise.all(purchases.map(statusOf))).join(), { timeout: HOLD_MS + 60_000, interval: 2000 }).toBe(purchases.map(() => "expired").join());
}

// ---------------------------------------------------------------------------------------------
// The browser

/** A page in one language (the site's language cookie) at one size. */
async function pageIn(lang: Lang, width: number, height: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { context, page } = await newPage(browser, width, height);
  if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL() }]);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

const buyerPage = (p: Bought) => new URL(p.buyerPagePath, baseURL()).pathname + new URL(p.buyerPagePath, baseURL()).hash;

async function signIn(page: Page) {
  await page.goto("/admin");
  await page.waitForURL("**/admin/login");
  await page.getByLabel("Usuario").fill(admin().username);
  await page.getByLabel("Contraseña").fill(admin().password);
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await page.waitForURL("**/admin/dashboard");
  await page.getByTestId("admin-tabs").waitFor();
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();
const row = (page: Page, reference: string) => page.locator(`[data-testid=purchase-row][data-reference="${reference}"]`);

// ---------------------------------------------------------------------------------------------
// What every test shares: bought now, so the one-minute holds run while the first test works.

let held: Raffle;
let heldPurchases: Bought[] = [];
let expiring: Raffle;
/** Expires, is seen expired by its buyer, then reopened by the admin. */
let toReopen: Bought;
/** Expires, and its number is taken by someone else before the admin tries to reopen it. */
let toClash: Bought;

beforeAll(async () => {
  browser = await launch();
  held = await newRaffle("Reservas vencen", { maxTickets: 3, holdMinutes: 1 });
  expiring = await newRaffle("Reservas para reabrir", { maxTickets: 10, holdMinutes: 1 });
  expect(held.holdMinutes).toBe(1);
  heldPurchases = await Promise.all([1, 2, 3].map((n) => buy(held.id, [n], `Reserva ${n}`)));
  toReopen = await buy(expiring.id, [4], `Vencida Reabrir ${RUN}`);
  toClash = await buy(expiring.id, [5], `Vencida Choque ${RUN}`);
});

afterAll(async () => {
  // Off the public lists again: these raffles have purchases, so they are set inactive, not deleted.
  for (const { id, body } of created) {
    const response = await adminCall(`/api/admin/raffles/${id}`, { method: "DELETE" });
    if (!response.ok) await adminCall(`/api/admin/raffles/${id}`, { method: "PUT", body: { ...body, status: "inactive" } });
  }
  await browser?.close();
});

// ---------------------------------------------------------------------------------------------

describe("a raffle page with nothing left to pick", () => {
  it("says the numbers are only held and when they may come back, takes an e-mail, and sells them again once the holds expire", { timeout: HOLD_MS + 120_000 }, async () => {
    const availability = await fetch(`${apiURL()}/api/raffles/${held.id}/availability`);
    expect(availability.headers.get("X-Pending-Count")).toBe("3");
    const nextRelease = availability.headers.get("X-Next-Release-At");
    expect(nextRelease).not.toBeNull();

    // English at 1440 px first, while everything is held.
    const en = await pageIn("en", 1440, 900);
    await en.page.goto(`/sorteo/${held.id}`);
    const enPanel = en.page.getByTestId("held-numbers");
    await enPanel.waitFor();
    expect(await enPanel.textContent()).toContain("Every number is on hold");
    expect(await enPanel.textContent()).toContain("3 numbers are held by purchases still waiting for their proof of payment.");
    expect(await en.page.getByTestId("next-release").textContent()).toMatch(/^The next hold ends (today at \d{1,2}:\d{2}\s?[AP]M|on .+)\.$/);
    await screenshot(en.page, "holds-held-en-1440");
    expect(await horizontalOverflow(en.page)).toBe(0);
    expect(await seriousViolations(en.page)).toEqual([]);
    expect(en.errors).toEqual([]);
    await en.context.close();

    // Spanish on a phone: the panel, no picker, the alert form; then it stays open until release.
    const { context, page, errors } = await pageIn("es", 390, 844);
    await page.goto(`/sorteo/${held.id}`);
    const panel = page.getByTestId("held-numbers");
    await panel.waitFor();
    expect(await panel.textContent()).toContain("Todos los números están apartados");
    expect(await panel.textContent()).toContain("3 números están apartados por compras que aún esperan su comprobante.");
    expect(await page.getByTestId("next-release").textContent()).toMatch(/^El próximo plazo vence (hoy a las \d{1,2}:\d{2}|el .+)\.$/);
    expect(await page.getByTestId("sold-out").count()).toBe(0);
    expect(await page.getByRole("group", { name: "Números disponibles" }).isVisible()).toBe(false);

    await page.getByLabel("Tu correo electrónico").fill("ana@");
    await page.getByRole("button", { name: "Avisarme" }).click();
    await page.getByText("Email inválido").waitFor();
    const email = `aviso-${RUN}@example.com`;
    await page.getByLabel("Tu correo electrónico").fill(email);
    const subscribed = page.waitForResponse((r) => r.url().endsWith(`/api/raffles/${held.id}/release-alerts`) && r.request().method() === "POST");
    await page.getByRole("button", { name: "Avisarme" }).click();
    expect((await subscribed).status()).toBe(201);
    expect(await page.getByTestId("release-alert-done").textContent()).toContain(`Te avisaremos en ${email} cuando se liberen números.`);
    await screenshot(page, "holds-held-es-390");
    expect(await horizontalOverflow(page)).toBe(0);

    // The holds end; the page reads the numbers again by itself and sells them.
    const grid = page.getByRole("group", { name: "Números disponibles" });
    await grid.waitFor({ state: "visible", timeout: HOLD_MS + 60_000 });
    expect(await page.getByTestId("held-numbers").count()).toBe(0);
    expect(await grid.getByRole("button").count()).toBeGreaterThan(0);
    // All three came back (a sweep may have caught the three holds a moment apart).
    await expired(...heldPurchases);
    await page.reload();
    await grid.waitFor();
    expect(await grid.getByRole("button").allTextContents()).toEqual(["0001", "0002", "0003"]);
    await screenshot(page, "holds-released-es-390");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'Agotado' when every number is sold and none only held", async () => {
    const soldOut = await newRaffle("Agotado", { maxTickets: 2 });
    for (const n of [1, 2]) await decide(await buy(soldOut.id, [n]), "approved");
    const availability = await fetch(`${apiURL()}/api/raffles/${soldOut.id}/availability`);
    expect(availability.headers.get("X-Pending-Count")).toBe("0");

    for (const [lang, [width, height]] of [["es", SIZES[0]], ["en", SIZES[1]], ["es", SIZES[1]], ["en", SIZES[0]]] as const) {
      const { context, page, errors } = await pageIn(lang, width, height);
      await page.goto(`/sorteo/${soldOut.id}`);
      const panel = page.getByTestId("sold-out");
      await panel.waitFor();
      expect(await panel.textContent()).toContain(lang === "es" ? "Agotado" : "Sold out");
      expect(await page.getByTestId("held-numbers").count()).toBe(0);
      expect(await page.getByTestId("release-alert-form").count()).toBe(0);
      await screenshot(page, `holds-sold-out-${lang}-${width}`);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe("sales that close before the draw", () => {
  it("shows 'Compras Cerradas' and no picker on the page, 'Ventas cerradas' on the list and in the panel, and the API refuses a purchase", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const closed = await newRaffle("Ventas cerradas", { drawDate: tomorrow, salesCloseHoursBeforeDraw: 720 });
    expect(closed.salesOpen).toBe(false);
    expect(Date.parse(closed.salesCloseAt ?? "")).toBeLessThan(Date.now());

    // The server's HTML: the closed panel, no picker, whatever the visitor's clock says.
    const html = await (await fetch(`${baseURL()}/sorteo/${closed.id}`)).text();
    expect(html).toContain('data-testid="countdown-closed"');
    expect(html).not.toContain('id="pick-title"');

    for (const [lang, [width, height]] of [["es", SIZES[0]], ["en", SIZES[1]]] as const) {
      const { context, page, errors } = await pageIn(lang, width, height);
      await page.goto(`/sorteo/${closed.id}`);
      const panel = page.getByTestId("countdown-closed");
      await panel.waitFor();
      expect(await panel.textContent()).toContain(lang === "es" ? "Compras Cerradas" : "Purchases closed");
      expect(await page.getByRole("group", { name: lang === "es" ? "Números disponibles" : "Available numbers" }).count()).toBe(0);
      await screenshot(page, `holds-sales-closed-${lang}-${width}`);

      await page.goto("/sorteos");
      const card = page.locator("article").filter({ hasText: closed.title });
      await card.waitFor();
      expect(await card.getByTestId("raffle-card-closed").textContent()).toBe(lang === "es" ? "Ventas cerradas" : "Sales closed");
      expect(errors).toEqual([]);
      await context.close();
    }

    const refused = await purchase(closed.id, [1], "Comprador Tardío");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe("sales_closed");

    const { context, page } = await newPage(browser, 1440, 900);
    await signIn(page);
    await page.getByRole("tab", { name: "Sorteos" }).click();
    const tableRow = page.locator(`[data-testid=raffle-row][data-title="${closed.title}"]`);
    await tableRow.waitFor();
    expect(await tableRow.getByTestId("raffle-sales-closed").textContent()).toBe("Ventas cerradas");
    expect(await tableRow.getByTestId("raffle-sales-until").textContent()).toMatch(/^Ventas hasta /);
    await context.close();
  });
});

describe("the buyer's own page", () => {
  const TEXT = {
    es: { awaiting: "Esperando tu comprobante", review: "Pago en revisión", approved: "¡Compra aprobada!", rejected: "Compra rechazada", expired: "Reserva vencida", notFound: "No encontramos esta compra", reopened: "Compra reabierta por el organizador" },
    en: { awaiting: "Waiting for your proof of payment", review: "Payment under review", approved: "Purchase approved!", rejected: "Purchase rejected", expired: "Hold expired", notFound: "We could not find this purchase", reopened: "Purchase reopened by the organiser" },
  } as const;

  /** Opens the buyer's link in each language and size, checks the state, saves a screenshot. */
  async function everyWay(path: string, name: string, check: (page: Page, lang: Lang) => Promise<void>) {
    for (const lang of ["es", "en"] as const) {
      for (const [width, height] of SIZES) {
        const { context, page, errors } = await pageIn(lang, width, height);
        await page.goto(path);
        await check(page, lang);
        await screenshot(page, `buyer-${name}-${lang}-${width}`);
        expect(await horizontalOverflow(page), `${name} ${lang} ${width}`).toBe(0);
        if (width === 1440) expect(await seriousViolations(page), `${name} ${lang}`).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }

  it("reads a pending purchase with its key in a header, never in the URL, and re-sends the proof", async () => {
    const raffle = await newRaffle("Pagina del comprador", { maxTickets: 50 });
    const bought = await buy(raffle.id, [7], "Compradora Página");
    expect(bought.buyerPagePath).toBe(`/compra/${bought.id}#${bought.purchaseToken}`);

    await everyWay(buyerPage(bought), "pending", async (page, lang) => {
      const status = page.getByTestId("buyer-status");
      await status.waitFor();
      expect(await status.getAttribute("data-state")).toBe("awaiting");
      expect(await status.textContent()).toContain(TEXT[lang].awaiting);
      await page.getByRole("timer").waitFor();
      expect(await page.getByTestId("buyer-reference").textContent()).toContain(bought.reference);
      expect(await page.getByTestId("buyer-numbers").textContent()).toContain("07");
      expect(await page.getByTestId("buyer-proof-upload").isVisible()).toBe(true);
    });

    const { context, page } = await pageIn("es", 390, 844);
    const sent: { url: string; header: string | undefined }[] = [];
    page.on("request", (r) => sent.push({ url: r.url(), header: r.headers()["x-purchase-token"] }));
    await page.goto(buyerPage(bought));
    await page.getByTestId("buyer-status").waitFor();
    // The key left the browser only as the header of the view's read (and in the invoice links).
    expect(sent.filter((s) => s.url.includes(bought.purchaseToken))).toEqual([]);
    const read = sent.find((s) => s.url.endsWith(`/api/purchases/${bought.id}/buyer`));
    expect(read?.header).toBe(bought.purchaseToken);
    // The receipt and the invoice open with the key.
    const pdf = await page.request.get((await page.getByTestId("buyer-receipt-link").getAttribute("href")) ?? "");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    const invoice = await page.request.get((await page.getByTestId("buyer-invoice-link").getAttribute("href")) ?? "");
    expect(invoice.status()).toBe(200);
    expect(await invoice.text()).toContain(bought.reference);

    // A file too big is refused on the spot; a good one goes up, and the page shows the review.
    await page.getByTestId("proof-retry-input").setInputFiles({ name: "enorme.png", mimeType: "image/png", buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await page.getByTestId("proof-retry-send").click();
    expect(await page.getByTestId("proof-failed-reason").textContent()).toBe("Archivo muy grande - El archivo debe ser menor a 5MB");
    await page.getByTestId("proof-retry-input").setInputFiles({ name: "pago.png", mimeType: "image/png", buffer: PNG });
    await page.getByTestId("proof-retry-send").click();
    await page.getByTestId("buyer-proof-sent").waitFor();
    await page.locator('[data-testid=buyer-status][data-state="review"]').waitFor();
    expect(await page.getByTestId("buyer-history").textContent()).toContain("Comprobante recibido");
    expect(await page.getByRole("timer").count()).toBe(0);
    expect(await page.getByTestId("buyer-proof-upload").count()).toBe(0);
    await screenshot(page, "buyer-proof-resent-es-390");
    await context.close();

    await everyWay(buyerPage(bought), "review", async (p, lang) => {
      await p.locator('[data-testid=buyer-status][data-state="review"]').waitFor();
      expect(await p.getByTestId("buyer-status").textContent()).toContain(TEXT[lang].review);
    });
  });

  it("shows an approved purchase, and a rejected one with the admin's note", async () => {
    const raffle = await newRaffle("Decisiones del comprador", { maxTickets: 50 });
    const approved = await buy(raffle.id, [1]);
    await attachProof(approved);
    await decide(approved, "approved");
    const rejected = await buy(raffle.id, [2]);
    await attachProof(rejected);
    await decide(rejected, "rejected", "La referencia del pago no aparece en el banco");

    await everyWay(buyerPage(approved), "approved", async (page, lang) => {
      await page.locator('[data-testid=buyer-status][data-state="approved"]').waitFor();
      expect(await page.getByTestId("buyer-status").textContent()).toContain(TEXT[lang].approved);
      expect(await page.getByTestId("buyer-history").locator("li").evaluateAll((items) => items.map((li) => li.getAttribute("data-kind")))).toEqual(["received", "proof_attached", "approved"]);
    });
    await everyWay(buyerPage(rejected), "rejected", async (page, lang) => {
      await page.locator('[data-testid=buyer-status][data-state="rejected"]').waitFor();
      expect(await page.getByTestId("buyer-status").textContent()).toContain(TEXT[lang].rejected);
      expect(await page.getByTestId("buyer-rejection-note").textContent()).toContain("La referencia del pago no aparece en el banco");
      expect(await page.getByTestId("buyer-proof-upload").count()).toBe(0);
    });
  });

  it("explains an expired purchase: the numbers went back on sale, and whom to contact", { timeout: HOLD_MS + 120_000 }, async () => {
    await expired(toReopen);
    await everyWay(buyerPage(toReopen), "expired", async (page, lang) => {
      await page.locator('[data-testid=buyer-status][data-state="expired"]').waitFor();
      expect(await page.getByTestId("buyer-status").textContent()).toContain(TEXT[lang].expired);
      expect(await page.getByTestId("buyer-status").textContent()).toContain(toReopen.reference);
      expect(await page.getByTestId("buyer-history").locator('li[data-kind="expired"]').count()).toBe(1);
      expect(await page.getByTestId("buyer-proof-upload").count()).toBe(0);
    });
  });

  it("says the purchase was not found for a wrong key or none, without breaking", async () => {
    for (const path of [`/compra/${toClash.id}#clave-equivocada`, `/compra/${toClash.id}`, "/compra/abc#x"]) {
      const { context, page, errors } = await pageIn("es", 390, 844);
      await page.goto(path);
      await page.getByTestId("buyer-not-found").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(TEXT.es.notFound);
      expect(errors).toEqual([]);
      await context.close();
    }
    await everyWay(`/compra/${toClash.id}#clave-equivocada`, "not-found", async (page, lang) => {
      await page.getByTestId("buyer-not-found").waitFor();
      expect(await page.getByTestId("buyer-not-found").textContent()).toContain(TEXT[lang].notFound);
    });
    // A private page: never indexed.
    const html = await (await fetch(`${baseURL()}/compra/${toClash.id}`)).text();
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
  });

  it("is linked from the receipt after a purchase on the site", async () => {
    const raffle = await newRaffle("Enlace del recibo", { maxTickets: 50 });
    for (const [lang, [width, height]] of [["es", SIZES[0]], ["en", SIZES[1]]] as const) {
      const { context, page, errors } = await pageIn(lang, width, height);
      await page.goto(`/sorteo/${raffle.id}`);
      const es = lang === "es";
      const grid = page.getByRole("group", { name: es ? "Números disponibles" : "Available numbers" });
      await grid.waitFor();
      await grid.getByRole("button").nth(es ? 2 : 3).click();
      const n = ++buyers;
      await page.getByLabel(es ? "Nombre completo" : "Full name").fill("Cliente Enlace");
      await page.getByLabel(es ? "Cédula o pasaporte" : "ID card or passport").fill(`E${RUN}${n}`);
      await page.getByLabel(es ? "Correo electrónico" : "E-mail").fill(`enlace-${RUN}-${n}@example.com`);
      await page.getByLabel(es ? "Teléfono (WhatsApp)" : "Phone (WhatsApp)").fill(`0424${String(RUN * 1000 + n).slice(-7).padStart(7, "0")}`);
      await page.getByLabel(es ? "País" : "Country").selectOption("venezuela");
      const method = page.getByLabel(es ? "Método de pago" : "Payment method");
      await method.selectOption((await method.locator("option").nth(1).getAttribute("value")) ?? "");
      await page.locator("#paymentProof").setInputFiles({ name: "pago.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("checkbox").check();
      await page.getByRole("button", { name: es ? /^Comprar 1 boleto/ : /^Buy 1 ticket/ }).click();

      const link = page.getByTestId("buyer-link");
      await link.waitFor({ timeout: 15_000 });
      expect(await link.textContent()).toContain(es ? "Sigue tu compra" : "Follow your purchase");
      const url = await page.getByTestId("buyer-link-url").inputValue();
      expect(url).toMatch(new RegExp(`^${baseURL()}/compra/\\d+#.+`));
      await screenshot(page, `receipt-buyer-link-${lang}-${width}`, { fullPage: false });

      const buyer = await pageIn(lang, width, height);
      await buyer.page.goto(url.slice(baseURL().length));
      await buyer.page.locator('[data-testid=buyer-status][data-state="review"]').waitFor();
      expect(await buyer.page.getByTestId("buyer-reference").textContent()).toContain((await page.getByTestId("receipt-reference").textContent())?.trim());
      await buyer.context.close();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe("the panel", () => {
  it("finds expired purchases, reopens one, and names the numbers that keep another from reopening", { timeout: HOLD_MS + 120_000 }, async () => {
    await expired(toReopen, toClash);
    // Someone else buys the clashing purchase's number meanwhile.
    const other = await buy(expiring.id, toClash.numbers, "Otro Comprador");

    const { context, page } = await newPage(browser, 1440, 900);
    await signIn(page);
    await page.getByLabel("Estado").first().selectOption("expired");
    await page.getByLabel("Nombre del cliente").fill(`Vencida Reabrir ${RUN}`);
    await row(page, toReopen.reference).waitFor();
    expect(await row(page, toReopen.reference).textContent()).toContain("Expirada");
    expect(await row(page, toReopen.reference).getByRole("button", { name: /Aprobar/ }).count()).toBe(0);
    await screenshot(page, "admin-expired-es-1440");

    await row(page, toReopen.reference).getByRole("button", { name: `Ver compra ${toReopen.reference}` }).click();
    const detail = page.getByTestId("purchase-detail");
    await detail.getByTestId("detail-expired-note").waitFor();
    await screenshot(page, "admin-expired-detail-es-1440", { fullPage: false });
    await detail.getByTestId("reopen-purchase").click();
    const dialog = page.getByTestId("reopen-dialog");
    expect(await dialog.textContent()).toContain("¿Reabrir esta compra?");
    await dialog.getByRole("button", { name: "Sí, reabrir" }).click();
    await toast(page, "Compra reabierta").waitFor();
    expect(await statusOf(toReopen)).toBe("pending");

    // Pending again, with a fresh deadline shown in the list.
    await page.getByLabel("Estado").first().selectOption("pending");
    await row(page, toReopen.reference).getByTestId("hold-deadline").waitFor();
    expect(await row(page, toReopen.reference).textContent()).toContain("Pendiente");

    // The other one: its number is taken, and the dialog says which.
    await page.getByLabel("Estado").first().selectOption("expired");
    await page.getByLabel("Nombre del cliente").fill(`Vencida Choque ${RUN}`);
    await row(page, toClash.reference).getByRole("button", { name: `Ver compra ${toClash.reference}` }).click();
    await page.getByTestId("purchase-detail").getByTestId("reopen-purchase").click();
    await page.getByTestId("reopen-dialog").getByRole("button", { name: "Sí, reabrir" }).click();
    const refused = page.getByTestId("reopen-refused");
    await refused.waitFor();
    expect(await refused.getByTestId("reopen-taken-number").allTextContents()).toEqual(toClash.numbers.map((n) => String(n).padStart(4, "0")));
    await screenshot(page, "admin-reopen-refused-es-1440", { fullPage: false });
    expect(await statusOf(toClash)).toBe("expired");
    expect(await statusOf(other)).toBe("pending");
    await page.keyboard.press("Escape");
    await context.close();

    // The reopened purchase's buyer sees it pending again, with the reopening in its history.
    const buyer = await pageIn("es", 390, 844);
    await buyer.page.goto(buyerPage(toReopen));
    await buyer.page.locator('[data-testid=buyer-status][data-state="awaiting"]').waitFor();
    expect(await buyer.page.getByTestId("buyer-history").textContent()).toContain("Compra reabierta por el organizador");
    await buyer.page.getByRole("timer").waitFor();
    await screenshot(buyer.page, "buyer-reopened-es-390");
    await buyer.context.close();
  });

  it("shows the expired status in English and on a phone, and the hold minutes in the raffle dialog", async () => {
    for (const [width, height] of SIZES) {
      const { context, page } = await newPage(browser, width, height);
      await signIn(page);
      // Cards on a phone, the table from 640 px.
      const items = page.locator(width < 640 ? "[data-testid=purchase-card]" : "[data-testid=purchase-row]");
      await page.getByLabel("Estado").first().selectOption("expired");
      await page.getByTestId("all-showing").filter({ hasText: /^Mostrando/ }).waitFor();
      await items.filter({ hasText: "Expirada" }).first().waitFor();
      await expect.poll(() => items.filter({ hasNotText: "Expirada" }).count()).toBe(0);
      await screenshot(page, `admin-expired-filter-es-${width}`);
      await page.getByTestId("language-toggle").click();
      await page.getByLabel("Status").first().selectOption("expired");
      await items.filter({ hasText: "Expired" }).first().waitFor();
      await screenshot(page, `admin-expired-filter-en-${width}`);
      expect(await horizontalOverflow(page)).toBe(0);

      await page.getByRole("tab", { name: "Raffles" }).click();
      await page.getByRole("button", { name: "Create raffle" }).click();
      const dialog = page.getByTestId("raffle-dialog");
      expect(await dialog.getByLabel("Hold minutes").inputValue()).toBe("30");
      expect(await dialog.getByLabel("Close sales N hours before the draw").inputValue()).toBe("0");
      await screenshot(page, `admin-raffle-dialog-en-${width}`, { fullPage: false });
      await page.keyboard.press("Escape");
      await page.getByTestId("language-toggle").click();
      await page.getByRole("tab", { name: "Sorteos" }).waitFor();
      await context.close();
    }
  });
});
