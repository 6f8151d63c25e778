// Issue 31 ("First hour of an operator"), on the real API and site: approving without a proof
// asks twice; branding colours take hex and a picker, with no line beside 'Datos del sitio';
// each ticket figure is named for what it counts; the receipt opens every number and its toast
// leaves the dialog's header clear; and the wording of limits, e-mail, the printable receipt
// and the draw's random source. Every screen in both languages at a phone's and a desktop's
// width, with a screenshot under artefacts/screenshots/issue31-*.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { PNG, apiURL, horizontalOverflow, launch, newPage, postPurchase, screenshot, seriousViolations } from "./helpers";
import { adminFetch, newRaffle, withAdminSession, withLanguage, type Lang } from "./first-use-helpers";
import es from "../../messages/es.json";
import en from "../../messages/en.json";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const RUN = Date.now() % 1_000_000;
const SIZES = [
  [390, 844],
  [1440, 900],
] as const;
const COMBINATIONS = (["es", "en"] as const).flatMap((lang) => SIZES.map(([width, height]) => ({ lang, width, height })));
const messages = (lang: Lang) => (lang === "es" ? es : en);

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();

async function pageIn(lang: Lang, width: number, height: number, { admin = false } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, width, height);
  await withLanguage(opened.context, lang);
  if (admin) await withAdminSession(opened.context);
  return opened;
}

let people = 0;
/** A purchase straight through the API by a new person, with no proof; its id and reference. */
async function buyWithoutProof(raffleId: number, numbers: number[]): Promise<{ id: number; reference: string }> {
  const n = ++people;
  const quote = (await (await fetch(`${apiURL()}/api/raffles/${raffleId}/quote?count=${numbers.length}`)).json()) as { total: string };
  const response = await postPurchase(raffleId, numbers, quote.total, {
    name: `Operador ${RUN} ${n}`,
    id: `V3${RUN}${n}`,
    email: `operador-${RUN}-${n}@example.com`,
    phone: `0416${String(RUN * 100 + n).slice(-7).padStart(7, "0")}`,
  });
  if (response.status !== 201) throw new Error(`purchase: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { purchase: { id: number; reference: string } }).purchase;
}

async function statusOf(id: number): Promise<string> {
  return (await adminFetch<{ status: string }>(`/api/admin/purchases/${id}`)).status;
}

/** Waits until the page has stopped scrolling (a smooth scroll to a section). */
async function settled(page: Page) {
  let last = -1;
  await expect
    .poll(async () => {
      const y = await page.evaluate(() => window.scrollY);
      const still = y === last;
      last = y;
      return still;
    }, { interval: 300, timeout: 10_000 })
    .toBe(true);
}

/** The dashboard's purchase list narrowed to one raffle. */
async function dashboardFor(page: Page, lang: Lang, raffleId: number) {
  await page.goto("/admin/dashboard");
  await page.getByTestId("admin-tabs").waitFor();
  await page.getByLabel(messages(lang).admin.purchases.filterRaffle, { exact: true }).selectOption(String(raffleId));
}

describe("approving a purchase without a proof (point 1)", () => {
  for (const { lang, width, height } of COMBINATIONS) {
    it(`says so and asks again, from the list and from the detail (${lang} ${width}x${height})`, async () => {
      const es = lang === "es";
      const raffle = await newRaffle(`Sin comprobante ${lang} ${width} ${RUN}`);
      const fromList = await buyWithoutProof(raffle.id, [7]);
      const fromDetail = await buyWithoutProof(raffle.id, [8]);
      const { context, page } = await pageIn(lang, width, height, { admin: true });
      await dashboardFor(page, lang, raffle.id);

      // From the list: the first confirmation names the missing proof…
      await page.getByRole("button", { name: es ? `Aprobar compra ${fromList.reference}` : `Approve purchase ${fromList.reference}` }).click();
      const dialog = page.getByTestId("decision-dialog");
      await dialog.getByRole("heading", { name: es ? "¿Aprobar esta compra?" : "Approve this purchase?" }).waitFor();
      expect(await dialog.getByRole("alert").textContent()).toBe(
        es
          ? "Esta compra no tiene comprobante de pago. Apruébala solo si confirmaste el pago por otra vía."
          : "This purchase has no payment proof. Approve it only if you confirmed the payment some other way.",
      );
      await screenshot(page, `issue31-approve-no-proof-${lang}-${width}`, { fullPage: false });
      await dialog.getByRole("button", { name: es ? "Sí, aprobar" : "Yes, approve", exact: true }).click();
      // …and the second asks again, with nothing sent yet.
      await dialog.getByRole("heading", { name: es ? "¿Aprobar sin comprobante?" : "Approve without a proof?" }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(es ? "Volver" : "Back");
      expect(await statusOf(fromList.id)).toBe("pending");
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `issue31-approve-no-proof-again-${lang}-${width}`, { fullPage: false });
      await dialog.getByRole("button", { name: es ? "Sí, aprobar sin comprobante" : "Yes, approve without a proof" }).click();
      await toast(page, es ? "Compra actualizada" : "Purchase updated").waitFor();
      await expect.poll(() => statusOf(fromList.id)).toBe("approved");

      // From the detail: the same two questions; going back and cancelling sends nothing.
      await page.getByRole("button", { name: es ? `Ver compra ${fromDetail.reference}` : `View purchase ${fromDetail.reference}` }).click();
      const detail = page.getByTestId("purchase-detail");
      await detail.getByText(es ? "El cliente no subió comprobante." : "The customer uploaded no proof.").waitFor();
      await detail.getByText(es ? "Correo electrónico" : "E-mail", { exact: true }).waitFor();
      await screenshot(page, `issue31-detail-no-proof-${lang}-${width}`, { fullPage: false });
      await detail.getByRole("button", { name: es ? "Aprobar" : "Approve", exact: true }).click();
      await dialog.getByRole("alert").waitFor();
      await dialog.getByRole("button", { name: es ? "Sí, aprobar" : "Yes, approve", exact: true }).click();
      await dialog.getByRole("button", { name: es ? "Volver" : "Back" }).click();
      await dialog.getByRole("heading", { name: es ? "¿Aprobar esta compra?" : "Approve this purchase?" }).waitFor();
      await dialog.getByRole("button", { name: es ? "Cancelar" : "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await statusOf(fromDetail.id)).toBe("pending");
      await context.close();
    });
  }
});

describe("branding colours and the site details' heading (points 4 and 11)", () => {
  for (const { lang, width, height } of COMBINATIONS) {
    it(`takes hex and a picker, keeps HSL, and draws no line beside 'Datos del sitio' (${lang} ${width}x${height})`, async () => {
      const es = lang === "es";
      const { context, page } = await pageIn(lang, width, height, { admin: true });
      await page.goto("/admin/dashboard");
      await page.getByRole("tab", { name: "Branding" }).click();
      const primary = page.getByLabel(es ? "Color primario" : "Primary colour", { exact: true });
      await primary.waitFor();
      const original = await primary.inputValue();

      // Hex typed: accepted, shown on the swatch, saveable.
      await primary.fill("#7c3aed");
      expect(await primary.getAttribute("aria-invalid")).toBeNull();
      expect(await page.getByTestId("swatch-primaryColor").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(124, 58, 237)");
      expect(await page.getByTestId("save-branding").isDisabled()).toBe(false);
      // The picker on the swatch writes the spec's HSL into the field.
      const picker = page.getByLabel(es ? "Color de éxito: selector de color" : "Success colour: colour picker");
      expect(await picker.getAttribute("type")).toBe("color");
      await picker.fill("#16a34a");
      expect(await page.getByLabel(es ? "Color de éxito" : "Success colour", { exact: true }).inputValue()).toBe("142.1 76.2% 36.3%");

      // 'Datos del sitio': the rule runs above the heading, not through and beside it.
      const heading = await page.getByTestId("branding-site").evaluate((fieldset) => {
        const legend = fieldset.querySelector("legend") as HTMLElement;
        const rule = fieldset.parentElement as HTMLElement;
        return {
          legend: legend.textContent,
          fieldsetBorder: getComputedStyle(fieldset).borderTopWidth,
          ruleBorder: getComputedStyle(rule).borderTopWidth,
          ruleAboveLegend: rule.getBoundingClientRect().top + parseFloat(getComputedStyle(rule).borderTopWidth) <= legend.getBoundingClientRect().top,
        };
      });
      expect(heading).toEqual({ legend: es ? "Datos del sitio" : "Site details", fieldsetBorder: "0px", ruleBorder: "1px", ruleAboveLegend: true });
      await page.getByRole("group", { name: es ? "Datos del sitio" : "Site details" }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `issue31-branding-${lang}-${width}`);

      if (lang === "es" && width === 1440) {
        // Saved: the API, which refuses hex, stores the HSL the site converted it to.
        await page.getByRole("button", { name: "Guardar" }).click();
        await toast(page, "Branding actualizado exitosamente").waitFor();
        const stored = (await (await fetch(`${apiURL()}/api/branding`)).json()) as { primaryColor: string; successColor: string };
        expect([stored.primaryColor, stored.successColor]).toEqual(["262.1 83.3% 57.8%", "142.1 76.2% 36.3%"]);
        expect(await primary.inputValue()).toBe("262.1 83.3% 57.8%");
        // The spec's default back for the other tests' screenshots.
        await primary.fill(original);
        await page.getByLabel("Color de éxito", { exact: true }).fill("142 76% 36%");
        await page.getByRole("button", { name: "Guardar" }).click();
        await toast(page, "Branding actualizado exitosamente").waitFor({ state: "attached" });
        await expect.poll(async () => ((await (await fetch(`${apiURL()}/api/branding`)).json()) as { primaryColor: string }).primaryColor).toBe(original);
      }
      await context.close();
    });
  }
});

describe("ticket figures named for what they count (point 7)", () => {
  for (const { lang, width, height } of COMBINATIONS) {
    it(`public: held or sold; dashboard: sold (approved) (${lang} ${width}x${height})`, async () => {
      const es = lang === "es";
      const raffle = await newRaffle(`Cifras ${lang} ${width} ${RUN}`);
      // One pending purchase of two numbers: the public figure counts them, the dashboard's does not.
      await buyWithoutProof(raffle.id, [11, 12]);
      const visitor = await pageIn(lang, width, height);
      await visitor.page.goto(`/sorteo/${raffle.id}`);
      const figure = visitor.page.locator("dt", { hasText: es ? "Apartados o vendidos" : "Held or sold" });
      await figure.waitFor();
      expect(await figure.locator("xpath=following-sibling::dd[1]").textContent()).toBe("2");
      expect(await visitor.page.locator("dt", { hasText: /^(Vendidos|Sold)$/ }).count()).toBe(0);
      await visitor.page.getByRole("progressbar", { name: es ? "Boletos apartados o vendidos" : "Tickets held or sold" }).waitFor();
      // The limits line: per purchase, and per person.
      await visitor.page.getByText(es ? "Mínimo 1 por compra · Máximo 20 por persona en este sorteo" : "Minimum 1 per purchase · Maximum 20 per person in this raffle").waitFor();
      expect(await horizontalOverflow(visitor.page)).toBe(0);
      await screenshot(visitor.page, `issue31-raffle-figures-${lang}-${width}`);
      await visitor.page.goto("/sorteos");
      const card = visitor.page.getByRole("article").filter({ hasText: raffle.title });
      expect(await card.textContent()).toContain(es ? "2 / 500 apartados o vendidos" : "2 / 500 held or sold");
      await visitor.context.close();

      const { context, page } = await pageIn(lang, width, height, { admin: true });
      await page.goto("/admin/dashboard");
      const tickets = page.getByTestId("card-tickets");
      await tickets.locator("[data-value]").waitFor();
      expect(await tickets.locator("span").first().textContent()).toBe(es ? "Boletos vendidos (aprobados)" : "Tickets sold (approved)");
      await screenshot(page, `issue31-dashboard-figures-${lang}-${width}`, { fullPage: false });
      await page.getByRole("tab", { name: es ? "Sorteos" : "Raffles" }).click();
      if (width >= 1024) {
        await page.getByRole("columnheader", { name: es ? "Apartados o vendidos" : "Held or sold" }).waitFor();
        // The longer name wraps: the actions stay on screen, the table does not scroll sideways.
        expect(await page.getByTestId("raffles-tab").locator("[data-slot=table-container]").evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      } else {
        await page.getByTestId("raffle-card").filter({ hasText: raffle.title }).getByText(es ? "Apartados o vendidos" : "Held or sold").waitFor();
      }
      await screenshot(page, `issue31-raffles-tab-${lang}-${width}`);
      await context.close();
    });
  }
});

/** The purchase form filled as a new person, paying with the first method and a proof. */
async function fillForm(page: Page, lang: Lang) {
  const m = messages(lang).purchase;
  const person = `${RUN}${++people}`.slice(-7).padStart(7, "0");
  await page.getByLabel(m.customerName).fill("María González");
  await page.getByLabel(m.customerId).fill(`V4${person}`);
  await page.getByLabel(m.customerEmail, { exact: true }).fill(`recibo-${RUN}-${people}@example.com`);
  await page.getByLabel(m.customerPhone).fill(`0412 ${person}`);
  await page.getByLabel(m.customerCountry).selectOption("venezuela");
  const method = page.getByLabel(m.paymentMethod);
  await method.selectOption((await method.locator("option").nth(1).getAttribute("value")) ?? "");
  // Other test files share the API and may have made the first method require a reference.
  if ((await page.getByTestId("reference-tag").textContent())?.includes(m.referenceRequiredTag)) {
    await page.getByLabel(new RegExp(m.paymentReference)).fill(`${Date.now()}`);
  }
  await page.locator("#paymentProof").setInputFiles({ name: "pago.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("checkbox").check();
}

describe("the receipt (point 8) and the buyer's wording (point 10)", () => {
  for (const { lang, width, height } of COMBINATIONS) {
    it(`opens every number, keeps the toast off the header, and says receipt and e-mail plainly (${lang} ${width}x${height})`, async () => {
      const es = lang === "es";
      const raffle = await newRaffle(`Recibo ${lang} ${width} ${RUN}`);
      const { context, page } = await pageIn(lang, width, height);
      await page.goto(`/sorteo/${raffle.id}`);
      await page.getByRole("button", { name: es ? "Al azar 5" : "Random 5" }).click();
      await fillForm(page, lang);
      await page.getByRole("button", { name: es ? /^Comprar 5 boletos/ : /^Buy 5 tickets/ }).click();

      const dialog = page.getByTestId("receipt-dialog");
      await dialog.waitFor({ timeout: 15_000 });
      const success = toast(page, es ? "¡Compra Exitosa!" : "Purchase successful!");
      await success.waitFor();
      // The toast never covers the dialog's header (on a phone it shows at the bottom).
      const header = await dialog.locator("[data-slot=dialog-header]").boundingBox();
      const shown = await success.boundingBox();
      expect(header && shown).toBeTruthy();
      const overlaps = shown!.x < header!.x + header!.width && header!.x < shown!.x + shown!.width && shown!.y < header!.y + header!.height && header!.y < shown!.y + shown!.height;
      expect(overlaps).toBe(false);
      await dialog.getByRole("heading", { name: es ? "¡Compra registrada!" : "Purchase registered!" }).waitFor();
      await screenshot(page, `issue31-receipt-toast-${lang}-${width}`, { fullPage: false });

      // The spec's three and '+2 más', then every number on demand.
      expect(await dialog.getByTestId("receipt-number").count()).toBe(3);
      await dialog.getByText(es ? "+2 más" : "+2 more").waitFor();
      const toggle = dialog.getByRole("button", { name: es ? "Ver todos (5)" : "See all (5)" });
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      await toggle.click();
      const all = dialog.getByRole("list", { name: es ? "Tus 5 números" : "Your 5 numbers" });
      expect(await all.getByRole("listitem").count()).toBe(5);
      expect(await dialog.getByRole("button", { name: es ? "Ver menos" : "See fewer" }).getAttribute("aria-expanded")).toBe("true");
      await success.waitFor({ state: "detached", timeout: 10_000 });
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `issue31-receipt-all-numbers-${lang}-${width}`, { fullPage: false });
      const buyerPage = await dialog.getByRole("link", { name: es ? "Abrir" : "Open" }).getAttribute("href");

      // The buyer's page: a printable receipt, not an invoice.
      await page.goto(buyerPage ?? "");
      const printable = page.getByRole("link", { name: es ? "Ver recibo imprimible" : "View printable receipt" });
      await printable.waitFor();
      expect(await page.getByText(/factura|invoice/i).count()).toBe(0);
      await screenshot(page, `issue31-buyer-page-${lang}-${width}`);

      // The home's ticket check: one word for an e-mail address.
      await page.goto("/#verificar");
      const kind = page.getByRole("radio", { name: es ? "Correo electrónico" : "E-mail" });
      await kind.waitFor();
      expect(await page.getByRole("radio", { name: "Email", exact: true }).count()).toBe(0);
      await page.getByRole("textbox", { name: es ? "Correo electrónico" : "E-mail" }).waitFor();
      // The home scrolls to the section a moment after loading: the picture once it stands still.
      await page.waitForTimeout(600);
      await settled(page);
      await kind.scrollIntoViewIfNeeded();
      await settled(page);
      await screenshot(page, `issue31-verify-${lang}-${width}`, { fullPage: false });
      await context.close();
    });
  }
});

/** A quicknet round long after the raffle's draw date (2030): the API takes it as a prize's source. */
const LATE_ROUND = 100_000_000;

describe("the draw's random source in plain words (point 10)", () => {
  let raffleId = 0;
  beforeAll(async () => {
    const raffle = await newRaffle(`Azar público ${RUN}`);
    raffleId = raffle.id;
    await adminFetch(`/api/admin/raffles/${raffleId}/prizes`, {
      method: "PUT",
      body: JSON.stringify({ prizes: [{ title: "Bicicleta", description: "", image: null, source: { kind: "beacon", round: LATE_ROUND } }] }),
    });
  });

  for (const { lang, width, height } of COMBINATIONS) {
    it(`names a beacon prize's source for buyers, drand only in the small print (${lang} ${width}x${height})`, async () => {
      const es = lang === "es";
      const { context, page } = await pageIn(lang, width, height);
      await page.goto(`/sorteo/${raffleId}`);
      const prize = page.getByTestId("prize-1");
      await prize.waitFor();
      await prize.getByText(es ? `Número al azar público de la ronda ${LATE_ROUND}` : `Public random number of round ${LATE_ROUND}`).waitFor();
      expect(await prize.textContent()).toContain(es ? "Lo publica drand, un servicio público" : "It is published by drand, a public service");
      const rule = page.getByTestId("draw-rule");
      expect(await rule.textContent()).toContain(es ? "Con un número al azar público" : "With a public random number");
      expect(await rule.textContent()).not.toMatch(/drand|bytes/);
      expect(await horizontalOverflow(page)).toBe(0);
      await page.getByTestId("draw-rule").scrollIntoViewIfNeeded();
      await screenshot(page, `issue31-draw-section-${lang}-${width}`);
      await context.close();
    });
  }
});
