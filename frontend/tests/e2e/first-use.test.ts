import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { PNG, apiURL, buyThroughApi, launch, newPage, screenshot } from "./helpers";
import { adminFetch, newRaffle, pageText, pickNumber, withAdminSession, withLanguage, type Lang, type Raffle } from "./first-use-helpers";
import es from "../../messages/es.json";
import en from "../../messages/en.json";

// Issue 12 ("First use"): what a new operator and a new buyer hit in their first hour.

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const SIZES = [
  [390, 844],
  [1440, 900],
] as const;

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();

async function openRaffleForm(page: Page, lang: Lang) {
  const m = lang === "es" ? es : en;
  await page.goto("/admin/dashboard");
  await page.getByRole("tab", { name: m.admin.tabs.raffles }).click();
  await page.getByRole("button", { name: m.admin.raffles.create }).first().click();
  const dialog = page.getByTestId("raffle-dialog");
  await dialog.waitFor();
  return dialog;
}

describe("the draw date field reads what is typed, pasted or picked, and refuses what it cannot read", () => {
  for (const lang of ["es", "en"] as const) {
    for (const [width, height] of SIZES) {
      it(`${lang} ${width}x${height}`, async () => {
        const m = lang === "es" ? es : en;
        const local = (iso: string) => (lang === "es" ? `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : `${iso.slice(5, 7)}/${iso.slice(8)}/${iso.slice(0, 4)}`);
        const { context, page } = await newPage(browser, width, height);
        await withLanguage(context, lang);
        await withAdminSession(context);
        const dialog = await openRaffleForm(page, lang);
        const title = `Fecha ${lang} ${width} ${Date.now()}`;
        await dialog.getByLabel(m.admin.raffleForm.title, { exact: true }).fill(title);
        await dialog.getByLabel(m.admin.raffleForm.descriptionLabel).fill("Una descripción");
        const date = dialog.locator('[data-testid$="-drawDate-text"]');
        const unreadable = dialog.locator('[data-testid$="-drawDate-unreadable"]');

        // Typed ISO: read, shown in the language's own format.
        await date.fill("");
        await date.pressSequentially("2026-12-20");
        await date.blur();
        expect(await date.inputValue()).toBe(local("2026-12-20"));
        expect(await unreadable.count()).toBe(0);

        // Typed in the language's own format.
        await date.fill("");
        await date.pressSequentially(local("2026-12-21"));
        await date.blur();
        expect(await date.inputValue()).toBe(local("2026-12-21"));

        // Pasted: the whole text arrives in one input event.
        await date.fill("");
        await date.focus();
        await page.keyboard.insertText("2026-12-22");
        await date.blur();
        expect(await date.inputValue()).toBe(local("2026-12-22"));

        // Unreadable: an error under the field, the text stays, and the form refuses to save.
        await date.fill("");
        await date.pressSequentially("2026-13-45");
        await date.blur();
        await unreadable.waitFor();
        expect(await date.inputValue()).toBe("2026-13-45");
        await screenshot(page, `first-use-date-unreadable-${lang}-${width}`, { fullPage: false });
        await dialog.getByTestId("save-raffle").click();
        await toast(page, m.admin.raffleForm.drawDateUnreadable).waitFor();
        expect(await dialog.isVisible()).toBe(true);
        const saved = await adminFetch<Raffle[]>("/api/admin/raffles");
        expect(saved.some((r) => r.title === title)).toBe(false);

        // The calendar: picking a day fills the field and clears the error.
        await dialog.getByRole("button", { name: m.admin.dateField.open }).click();
        const calendar = page.getByTestId("date-calendar");
        const fifteenth = calendar.locator("td button").filter({ hasText: /^15$/ }).first();
        await fifteenth.click();
        expect(await date.inputValue()).toMatch(lang === "es" ? /^15\/\d{2}\/\d{4}$/ : /^\d{2}\/15\/\d{4}$/);
        expect(await unreadable.count()).toBe(0);

        // Typed ISO again, then saved: the raffle has that draw date, not today.
        await date.fill("");
        await date.pressSequentially("2026-12-20");
        await date.blur();
        await dialog.getByTestId("save-raffle").click();
        await dialog.waitFor({ state: "detached" });
        const raffles = await adminFetch<Raffle[]>("/api/admin/raffles");
        const created = raffles.find((r) => r.title === title);
        expect(created?.drawDate?.slice(0, 10)).toBe("2026-12-20");
        await adminFetch(`/api/admin/raffles/${created?.id}`, { method: "DELETE" }).catch(() => undefined);
        await context.close();
      });
    }
  }

  it("reads an ISO day typed into the purchases' date filter too", async () => {
    const { context, page } = await newPage(browser, 1440, 900);
    await withLanguage(context, "es");
    await withAdminSession(context);
    await page.goto("/admin/dashboard");
    const date = page.getByLabel("Fecha", { exact: true });
    await date.pressSequentially("2026-12-20");
    await date.blur();
    expect(await date.inputValue()).toBe("20/12/2026");
    await date.fill("31/02/2026");
    await date.blur();
    await page.getByTestId("filter-date-unreadable").waitFor();
    await context.close();
  });
});

async function fillPurchase(page: Page, { email, proof = PNG, phone = "0412 123 4567", lang = "es" }: { email: string; proof?: Buffer; phone?: string; lang?: Lang }) {
  const p = (lang === "es" ? es : en).purchase;
  await page.getByLabel(p.customerName).fill("María González");
  await page.getByLabel(p.customerId).fill("V12345678");
  await page.getByLabel(p.customerEmail).fill(email);
  await page.getByLabel(p.customerPhone).fill(phone);
  await page.getByLabel(p.customerCountry).selectOption("venezuela");
  const method = page.getByLabel(p.paymentMethod);
  await method.selectOption((await method.locator("option").nth(1).getAttribute("value")) ?? "");
  await page.locator("#paymentProof").setInputFiles({ name: "pago.png", mimeType: "image/png", buffer: proof });
  await page.getByRole("checkbox").check();
}

async function formValues(page: Page) {
  return {
    name: await page.getByLabel("Nombre completo").inputValue(),
    id: await page.getByLabel("Cédula o pasaporte").inputValue(),
    email: await page.getByLabel("Correo electrónico").inputValue(),
    phone: await page.getByLabel("Teléfono (WhatsApp)").inputValue(),
    country: await page.getByLabel("País").inputValue(),
    method: await page.getByLabel("Método de pago").inputValue(),
    file: await page.locator("#paymentProof").evaluate((input: HTMLInputElement) => input.files?.[0]?.name ?? ""),
    terms: await page.getByRole("checkbox").getAttribute("aria-checked"),
  };
}

const pick = (page: Page, label: string) => pickNumber(page, label, "Buscar número", "Número");

describe("the purchase form keeps what the buyer typed", () => {
  for (const [width, height] of SIZES) {
    it(`through a number swap and a lost race, and the buyer replaces just the taken number (${width}x${height})`, async () => {
      const raffle = await newRaffle(`Carrera ${width} ${Date.now()}`);
      const { context, page } = await newPage(browser, width, height);
      await withLanguage(context, "es");
      await page.goto(`/sorteo/${raffle.id}`);
      await pick(page, "0001");
      const email = `carrera-${width}-${Date.now()}@example.com`;
      await fillPurchase(page, { email });
      const typed = await formValues(page);
      expect(typed.file).toBe("pago.png");

      // Swap the only number: the form hides (no number) and comes back as it was.
      await pick(page, "0001");
      await pick(page, "0002");
      expect(await formValues(page)).toEqual(typed);

      // Another buyer takes 003 between filling and submitting.
      await pick(page, "0003");
      await buyThroughApi(raffle.id, [3], "2.00");
      await page.getByRole("button", { name: /^Comprar 2 boletos/ }).click();
      const lost = page.getByTestId("lost-race");
      await lost.waitFor();
      expect(await lost.textContent()).toContain("Estos boletos ya no están disponibles: 0003");
      expect(await lost.getByTestId("taken-number").allTextContents()).toEqual(["0003"]);
      expect(await formValues(page)).toEqual(typed);
      await screenshot(page, `first-use-lost-race-es-${width}`);

      // 002 is still selected; pick a replacement for 003 and buy.
      await pick(page, "0004");
      await page.getByRole("button", { name: /^Comprar 2 boletos/ }).click();
      const receipt = page.getByTestId("receipt-dialog");
      await receipt.waitFor();
      expect(await receipt.textContent()).toContain("0002");
      expect(await receipt.textContent()).toContain("0004");
      await context.close();
    });

    it(`submits on the first click although a field is left invalid (${width}x${height})`, async () => {
      const raffle = await newRaffle(`Clic ${width} ${Date.now()}`);
      const { context, page } = await newPage(browser, width, height);
      await withLanguage(context, "es");
      await page.goto(`/sorteo/${raffle.id}`);
      await pick(page, "0001");
      // Everything but the proof, and a phone too short, still focused when the button is pressed.
      await page.getByLabel("Nombre completo").fill("María González");
      await page.getByLabel("Cédula o pasaporte").fill("V12345678");
      await page.getByLabel("Correo electrónico").fill(`clic-${Date.now()}@example.com`);
      await page.getByLabel("País").selectOption("venezuela");
      const method = page.getByLabel("Método de pago");
      await method.selectOption((await method.locator("option").nth(1).getAttribute("value")) ?? "");
      await page.getByRole("checkbox").check();
      await page.getByLabel("Teléfono (WhatsApp)").fill("123");
      const button = page.getByRole("button", { name: /^Comprar 1 boleto/ });
      await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      if (!box) throw new Error("no button");
      await page.getByLabel("Teléfono (WhatsApp)").focus();
      // One press and release where the button was before the phone field lost focus.
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      // The submit ran: the phone's error and the proof's (which only a submit reports) show.
      await page.locator("#customerPhone-error").waitFor();
      await page.locator("#paymentProof-error").waitFor();
      await screenshot(page, `first-use-first-click-es-${width}`, { fullPage: false });
      await context.close();
    });

    for (const lang of ["es", "en"] as const) {
      it(`says on the receipt that a refused proof did not arrive and takes it again (${lang} ${width}x${height})`, async () => {
        const raffle = await newRaffle(`Comprobante ${lang} ${width} ${Date.now()}`);
        const { context, page } = await newPage(browser, width, height);
        await withLanguage(context, lang);
        await page.goto(`/sorteo/${raffle.id}`);
        await pickNumber(page, "0001", lang === "es" ? "Buscar número" : "Search number", lang === "es" ? "Número" : "Number");
        const email = `comprobante-${lang}-${width}-${Date.now()}@example.com`;
        // Declared a PNG, but not one: the API refuses it after the purchase exists.
        await fillPurchase(page, { email, proof: Buffer.from("esto no es una imagen"), lang });
        await page.getByRole("button", { name: /^(Comprar|Buy) 1 / }).click();
        const receipt = page.getByTestId("receipt-dialog");
        await receipt.waitFor();
        const failed = receipt.getByTestId("proof-failed");
        await failed.waitFor();
        const reason = (await failed.getByTestId("proof-failed-reason").textContent()) ?? "";
        expect(reason.length).toBeGreaterThan(10);
        expect(reason).not.toMatch(/^\d{3}:/);
        // Nothing on the receipt is wider than the dialog (a phone would cut it off).
        expect(await receipt.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
        await screenshot(page, `first-use-proof-failed-${lang}-${width}`, { fullPage: false });

        await receipt.getByTestId("proof-retry-input").setInputFiles({ name: "pago-bueno.png", mimeType: "image/png", buffer: PNG });
        await receipt.getByTestId("proof-retry-send").click();
        await receipt.getByTestId("proof-retry-sent").waitFor();
        const found = await adminFetch<{ items: { customerEmail: string; paymentProof: string | null }[] }>(
          `/api/admin/purchases/search?name=${encodeURIComponent("María González")}&raffleId=${raffle.id}`,
        );
        expect(found.items.find((p) => p.customerEmail === email)?.paymentProof).toBeTruthy();
        await context.close();
      });
    }
  }
});

describe("texts that say what is true", () => {
  it("a test purchase's receipt promises no e-mail", async () => {
    const raffle = await newRaffle(`Prueba ${Date.now()}`);
    const { context, page } = await newPage(browser, 390, 844);
    await withLanguage(context, "es");
    await withAdminSession(context);
    await page.goto(`/sorteo/${raffle.id}`);
    await page.getByTestId("admin-test-banner").waitFor();
    await pick(page, "0001");
    await fillPurchase(page, { email: `prueba-${Date.now()}@example.com` });
    await page.getByRole("button", { name: es.purchase.submitTest }).click();
    const note = page.getByTestId("receipt-email-note");
    await note.waitFor();
    expect(await note.textContent()).toBe(es.receipt.testNoEmail);
    await context.close();
  });

  it("the lookup does not call a pending purchase's total 'paid'", async () => {
    const raffle = await newRaffle(`Consulta ${Date.now()}`);
    const email = `consulta-${Date.now()}@example.com`;
    const methods = (await (await fetch(`${apiURL()}/api/payment-methods`)).json()) as { id: number }[];
    const form = new FormData();
    for (const [k, v] of Object.entries({
      customerName: "Ana Pérez", customerId: "V11222333", customerEmail: email, customerPhone: "04141112233", customerCountry: "venezuela",
      paymentMethod: String(methods[0]?.id), raffleId: String(raffle.id), ticketNumbers: "[7]", totalAmount: "2.00", discountApplied: "0", acceptTerms: "true",
    })) form.set(k, v);
    expect((await fetch(`${apiURL()}/api/raffles/${raffle.id}/purchase`, { method: "POST", body: form })).status).toBe(201);
    for (const lang of ["es", "en"] as const) {
      const { context, page } = await newPage(browser, 390, 844);
      await withLanguage(context, lang);
      await page.goto("/#verificar");
      await page.getByRole("textbox", { name: lang === "es" ? "Correo electrónico" : "E-mail" }).fill(email);
      await page.getByRole("button", { name: lang === "es" ? "Verificar" : "Check", exact: true }).click();
      const label = page.getByTestId("verify-total-label").first();
      await label.waitFor();
      expect(await label.textContent()).toBe(lang === "es" ? "Total (pago pendiente de aprobación)" : "Total (payment awaiting approval)");
      await context.close();
    }
  });

  it("the approval and rejection dialogs say the note is e-mailed to the buyer", async () => {
    const raffle = await newRaffle(`Nota ${Date.now()}`);
    await buyThroughApi(raffle.id, [9], "2.00");
    const { context, page } = await newPage(browser, 1440, 900);
    await withLanguage(context, "es");
    await withAdminSession(context);
    await page.goto("/admin/dashboard");
    await page.getByLabel("Sorteo", { exact: true }).selectOption(String(raffle.id));
    await page.getByRole("button", { name: /^Aprobar compra/ }).first().click();
    expect(await page.getByTestId("notes-mailed").textContent()).toBe(es.admin.decision.notesMailedApprove);
    await page.getByRole("button", { name: "Cancelar" }).click();
    await page.getByRole("button", { name: /^Rechazar compra/ }).first().click();
    expect(await page.getByTestId("notes-mailed").textContent()).toBe(es.admin.decision.notesMailedReject);
    await screenshot(page, "first-use-reject-note-es-1440", { fullPage: false });
    await context.close();
  });

  it("a failed sign-in's toast goes away once the sign-in succeeds", async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await withLanguage(context, "es");
    await page.goto("/admin/login");
    const { username, password } = (await import("./first-use-helpers")).admin();
    await page.getByLabel("Usuario").fill(username);
    await page.getByLabel("Contraseña").fill("no-es-la-clave");
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await toast(page, es.admin.login.failedTitle).waitFor();
    await page.getByLabel("Contraseña").fill(password);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.waitForURL("**/admin/dashboard");
    await page.getByTestId("admin-tabs").waitFor();
    await toast(page, es.admin.login.failedTitle).waitFor({ state: "detached" });
    await context.close();
  });
});

describe("the home page for a signed-in admin", () => {
  it("shows the admin list (any status), the public one to visitors", async () => {
    const hidden = await newRaffle(`Inactivo ${Date.now()}`, "inactive");
    const { context, page } = await newPage(browser, 1440, 900);
    await withLanguage(context, "es");
    await page.goto("/");
    await page.getByRole("heading", { name: es.homeRaffles.title }).waitFor();
    expect(await page.getByRole("link", { name: hidden.title }).count()).toBe(0);
    await context.close();

    const signedIn = await newPage(browser, 1440, 900);
    await withLanguage(signedIn.context, "es");
    await withAdminSession(signedIn.context);
    await signedIn.page.goto("/");
    // Newest first: the new inactive raffle is among the first three of the admin list.
    await signedIn.page.getByRole("link", { name: hidden.title }).first().waitFor();
    await signedIn.context.close();
  });
});

describe("formats follow the active language", () => {
  for (const [width, height] of SIZES) {
    it(`money, counts and dates in English and in Spanish (${width}x${height})`, async () => {
      const raffle = await newRaffle(`Formato ${width} ${Date.now()}`);
      for (const lang of ["es", "en"] as const) {
        const { context, page } = await newPage(browser, width, height);
        await withLanguage(context, lang);
        await page.goto(`/sorteo/${raffle.id}`);
        const price = (await page.getByTestId("raffle-price").textContent())?.replace(/\u00a0/g, " ");
        expect(price).toBe(lang === "es" ? "US$ 2,00" : "US$ 2.00");
        const text = await pageText(page);
        expect(text).toContain(lang === "es" ? "15 de enero de 2030" : "January 15, 2030");
        await pickNumber(page, "0001", lang === "es" ? "Buscar número" : "Search number", lang === "es" ? "Número" : "Number");
        expect((await page.getByTestId("picker-total").textContent())?.replace(/\u00a0/g, " ")).toBe(lang === "es" ? "US$ 2,00" : "US$ 2.00");
        await screenshot(page, `first-use-raffle-${lang}-${width}`);
        await context.close();
      }
    });
  }
});

/** Namespaces of the messages: a text like "admin.foo.bar" on a page is a key shown raw. */
const NAMESPACES = Object.keys(es).join("|");
const RAW_KEY = new RegExp(`\\b(${NAMESPACES})\\.[a-zA-Z]+(\\.[a-zA-Z]+)*\\b`);

/**
 * Words of the other language that no page of this one should show (UI words: the operator's
 * own content, such as raffle titles and method names, is removed from the text first).
 */
const TELL_TALE: Record<Lang, RegExp> = {
  es: /\b(Buy|Search|Loading|Sign out|Sign in|Available|available|Payment method|Draw date|Bank name|Account number|Status|Price|Save|Cancel|Edit|Delete|Pending|pending|Approved|approved|Rejected|rejected|Tickets|Raffles|Total paid|Inactive|inactive|finished|postponed|completed|Checking|Savings|Page|of the|Next|Previous|Close|Yes|No results|tickets)\b/,
  en: /\b(Comprar|Boletos|boletos|Números|números|disponibles|Buscar|Cargando|Cerrar sesión|Iniciar sesión|Estado|Precio|Método de pago|Fecha del sorteo|Sorteos|Guardar|Cancelar|Editar|Eliminar|Pendiente|Aprobada|Rechazada|Tasa|Titular|Número de cuenta|Banco|Inactivo|Disponible|Página|Siguiente|Anterior|Cerrar|Correo|Teléfono|Verificar|Ver todos)\b/,
};

async function operatorTexts(): Promise<string[]> {
  const raffles = await adminFetch<Raffle[]>("/api/admin/raffles");
  const methods = (await (await fetch(`${apiURL()}/api/payment-methods`)).json()) as { name: string; details: Record<string, string> }[];
  const allMethods = await adminFetch<{ name: string; details: Record<string, string> }[]>("/api/admin/payment-methods").catch(() => methods);
  const branding = (await (await fetch(`${apiURL()}/api/branding`)).json().catch(() => ({}))) as Record<string, string | null>;
  const purchases = await adminFetch<{ items: Record<string, unknown>[] }>("/api/admin/purchases/search?pageSize=100");
  const texts = [
    ...raffles.flatMap((r) => [r.title, r.description, r.description.slice(0, 50), r.description.slice(0, 100)]),
    ...allMethods.flatMap((m) => [m.name, ...Object.values(m.details ?? {}).map(String)]),
    ...Object.values(branding).filter((v): v is string => typeof v === "string"),
    ...purchases.items.flatMap((p) => ["customerName", "customerEmail", "paymentMethod", "raffleTitle", "adminNotes"].map((k) => String(p[k] ?? ""))),
  ];
  return texts.filter((t) => t.trim().length >= 3).sort((a, b) => b.length - a.length);
}

async function settle(page: Page) {
  await page.waitForLoadState("load");
  await page.waitForFunction(() => document.querySelectorAll(".animate-spin, [data-slot=skeleton]").length === 0, undefined, { timeout: 15_000 }).catch(() => undefined);
}

describe("every page speaks one language", () => {
  for (const lang of ["es", "en"] as const) {
    it(`public pages and admin tabs in ${lang} show no word of the other language and no raw key`, async () => {
      const raffle = (await (await fetch(`${apiURL()}/api/raffles`)).json())[0] as Raffle;
      const strip = await operatorTexts();
      const problems: string[] = [];
      const check = async (page: Page, where: string) => {
        await settle(page);
        let text = await pageText(page);
        for (const s of strip) text = text.split(s).join(" ");
        const raw = RAW_KEY.exec(text);
        if (raw) problems.push(`${where}: raw key "${raw[0]}"`);
        for (const line of text.split("\n")) {
          const word = TELL_TALE[lang].exec(line);
          if (word) problems.push(`${where}: "${word[0]}" in "${line.trim().slice(0, 120)}"`);
        }
      };
      const { context, page } = await newPage(browser, 1440, 900);
      await withLanguage(context, lang);
      for (const path of ["/", "/sorteos", `/sorteo/${raffle.id}`, "/terminos-y-condiciones", "/politica-de-privacidad", "/politica-de-reembolso", "/juego-responsable", "/admin/login"]) {
        await page.goto(path);
        await check(page, path);
      }
      // The purchase form with a bank method's details.
      await page.goto(`/sorteo/${raffle.id}`);
      await page.getByTestId("ticket-grid").getByRole("button").first().click();
      const method = page.locator("#paymentMethod");
      if (await method.count()) {
        for (const value of await method.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean))) {
          await method.selectOption(value);
          await check(page, `/sorteo/${raffle.id} method ${value}`);
        }
      }
      await context.close();

      const signedIn = await newPage(browser, 1440, 900);
      await withLanguage(signedIn.context, lang);
      await withAdminSession(signedIn.context);
      await signedIn.page.goto("/admin/dashboard");
      await signedIn.page.getByTestId("admin-tabs").waitFor();
      const tabs = signedIn.page.getByTestId("admin-tabs").getByRole("tab");
      for (let i = 0; i < (await tabs.count()); i++) {
        const tab = tabs.nth(i);
        const name = (await tab.textContent()) ?? String(i);
        await tab.click();
        await check(signedIn.page, `/admin/dashboard tab ${name}`);
      }
      await signedIn.context.close();
      expect(problems).toEqual([]);
    });
  }
});
