import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { PNG, apiURL, buyThroughApi, horizontalOverflow, launch, newPage, screenshot, seriousViolations } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Raffle = { id: number; title: string; status: string; maxTickets: number; price: string; purchaseLimits: { min: number; max: number } };

async function publicRaffles(): Promise<Raffle[]> {
  return (await (await fetch(`${apiURL()}/api/raffles`)).json()) as Raffle[];
}

/** The 999-number demo raffle (limits 1..20): quick to pick in. */
async function smallRaffle(): Promise<Raffle> {
  const raffles = await publicRaffles();
  const raffle = raffles.find((r) => r.maxTickets < 10_000 && r.purchaseLimits.max >= 2) ?? raffles[0];
  if (!raffle) throw new Error("no raffle on sale in the demo data");
  return raffle;
}

async function pick(page: Page, label: string) {
  await page.getByLabel("Buscar número").fill(label);
  await page.getByRole("button", { name: `Número ${label}`, exact: true }).click();
  await page.getByLabel("Buscar número").fill("");
}

async function fillForm(page: Page, email: string) {
  await page.getByLabel("Nombre completo").fill("María González");
  await page.getByLabel("Cédula o pasaporte").fill("V12345678");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Teléfono (WhatsApp)").fill("0412 123 4567");
  await page.getByLabel("País").selectOption("venezuela");
  const method = page.getByLabel("Método de pago");
  const firstMethod = await method.locator("option").nth(1).getAttribute("value");
  await method.selectOption(firstMethod ?? "");
  await page.locator("#paymentProof").setInputFiles({ name: "pago.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("checkbox").check();
}

describe("buying tickets", () => {
  it("goes home → raffle → pick → form → receipt → verify by e-mail", async () => {
    const raffle = await smallRaffle();
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain("premio");
    await page.getByRole("link", { name: raffle.title }).first().click();
    await page.waitForURL(`**/sorteo/${raffle.id}`);
    await page.getByRole("heading", { name: raffle.title }).waitFor();

    const width = Math.max(4, String(raffle.maxTickets).length);
    await page.getByRole("group", { name: "Números disponibles" }).waitFor();
    const first = await page.getByRole("group", { name: "Números disponibles" }).getByRole("button").nth(3).textContent();
    await pick(page, first ?? "".padStart(width, "0"));
    await page.getByTestId("picker-summary").waitFor();
    expect(await page.getByTestId("picker-summary").textContent()).toContain(first);

    const email = `maria-${Date.now()}@example.com`;
    await fillForm(page, email);
    await screenshot(page, "purchase-form-390");
    await page.getByRole("button", { name: /^Comprar 1 boleto/ }).click();

    const dialog = page.getByTestId("receipt-dialog");
    await dialog.waitFor({ timeout: 15_000 });
    const reference = (await page.getByTestId("receipt-reference").textContent())?.trim();
    expect(reference).toMatch(/^RF-/);
    expect(await dialog.textContent()).toContain("Procesando pago");
    expect(await dialog.textContent()).toContain(first);
    await screenshot(page, "receipt-390");
    await dialog.getByRole("button", { name: "Continuar" }).click();

    // Verify by e-mail on the home page.
    await page.goto("/#verificar");
    await page.getByLabel("Correo electrónico").fill(email.toUpperCase());
    await page.getByRole("button", { name: "Verificar", exact: true }).click();
    const results = page.getByTestId("verify-results");
    await results.waitFor({ timeout: 10_000 });
    const text = await results.textContent();
    expect(text).toContain(raffle.title);
    expect(text).toContain(first);
    expect(text).toContain(reference);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refuses a number taken meanwhile, names it and keeps the rest", async () => {
    const raffle = await smallRaffle();
    const { context, page } = await newPage(browser);
    await page.goto(`/sorteo/${raffle.id}`);
    const grid = page.getByRole("group", { name: "Números disponibles" });
    await grid.waitFor();
    const a = (await grid.getByRole("button").nth(10).textContent()) as string;
    const b = (await grid.getByRole("button").nth(11).textContent()) as string;
    await pick(page, a);
    await pick(page, b);
    await fillForm(page, `race-${Date.now()}@example.com`);

    // Someone else buys `b` first.
    await buyThroughApi(raffle.id, [Number(b)], raffle.price);

    await page.getByRole("button", { name: /^Comprar 2 boletos/ }).click();
    const toast = page.getByText(`Otra persona tomó ${b} mientras elegías`, { exact: false });
    await toast.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      await screenshot(page, "failure-taken");
      throw new Error(`${String(error)}\ntoasts: ${JSON.stringify(await page.locator("[data-sonner-toast]").allInnerTexts())}`);
    });
    const summary = await page.getByTestId("picker-summary").textContent();
    expect(summary).toContain(a);
    expect(summary).not.toContain(b);
    expect(summary).toContain("1 boleto seleccionado");
    await context.close();
  });

  it("shows the closed message for a raffle that is not on sale", async () => {
    const { context, page } = await newPage(browser);
    // Demo raffle 4 is finished; the public page explains instead of selling.
    const response = await page.goto("/sorteo/4");
    expect(response?.status()).toBe(200);
    await page.getByTestId("raffle-unavailable").waitFor();
    expect(await page.getByTestId("raffle-unavailable").textContent()).toContain("Sorteo No Disponible");
    expect(await page.getByRole("group", { name: "Números disponibles" }).count()).toBe(0);
    await context.close();
  });

  it("lets an admin open a draft raffle in test mode", async () => {
    const login = await fetch(`${apiURL()}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: inject("adminUsername"), password: inject("adminPassword") }),
    });
    expect(login.status).toBe(200);
    const session = (await login.json()) as { token: string; user: unknown };
    const { context, page } = await newPage(browser);
    await page.goto("/sorteos");
    await page.evaluate((s) => {
      localStorage.setItem("auth_token", s.token);
      localStorage.setItem("auth_user", JSON.stringify(s.user));
    }, session);
    await page.goto("/sorteo/6");
    await page.getByTestId("admin-view-banner").waitFor();
    expect(await page.getByTestId("admin-test-banner").textContent()).toContain("Modo Prueba de Admin");
    const grid = page.getByRole("group", { name: "Números disponibles" });
    await grid.waitFor();
    await grid.getByRole("button").first().click();
    await fillForm(page, `admin-test-${Date.now()}@example.com`);
    await page.getByRole("button", { name: /Probar compra/ }).click();
    await page.getByTestId("receipt-dialog").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("receipt-dialog").textContent()).toContain("Modo Prueba");
    await context.close();
  });
});

describe("language", () => {
  it("switches to English and keeps it across reloads", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await page.getByTestId("language-toggle").click();
    await page.waitForFunction(() => document.documentElement.lang === "en");
    await page.getByRole("heading", { name: "Your next prize is one ticket away" }).waitFor();
    await page.reload();
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.getByRole("heading", { name: "Frequently asked questions" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("en");
    await context.close();
  });
});

describe("pages", () => {
  it("answers 404 with 'Page not found'", async () => {
    const { context, page } = await newPage(browser);
    const response = await page.goto("/esta-pagina-no-existe");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await context.close();
  });

  it("renders raffle pages with Open Graph and Twitter tags", async () => {
    const raffle = await smallRaffle();
    const html = await (await fetch(`${inject("baseURL")}/sorteo/${raffle.id}`)).text();
    expect(html).toContain(`<meta property="og:title" content="${raffle.title}`);
    expect(html).toMatch(/<meta property="og:image" content="[^"]+"/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(html).toContain("product:price:amount");
  });

  const pages = async () => {
    const raffle = await smallRaffle();
    return [
      ["home", "/"],
      ["sorteos", "/sorteos"],
      ["sorteo", `/sorteo/${raffle.id}`],
      ["sorteo-99999", "/sorteo/2"],
      ["terminos", "/terminos-y-condiciones"],
      ["404", "/no-existe"],
    ] as const;
  };

  it("fits 360 px without horizontal overflow, and has no serious axe violations", async () => {
    const { context, page } = await newPage(browser, 360, 780);
    const problems: string[] = [];
    for (const [name, path] of await pages()) {
      await page.goto(path, { waitUntil: "networkidle" });
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) problems.push(`${name}: ${overflow}px of horizontal overflow at 360 px`);
      for (const v of await seriousViolations(page)) problems.push(`${name}: ${v}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("saves screenshots at phone and desktop sizes", async () => {
    for (const [width, height, label] of [[360, 780, "360"], [390, 844, "390x844"], [1280, 900, "1280"], [1440, 900, "1440x900"]] as const) {
      const { context, page } = await newPage(browser, width, height);
      for (const [name, path] of await pages()) {
        await page.goto(path, { waitUntil: "networkidle" });
        await screenshot(page, `${name}-${label}`);
      }
      await context.close();
    }
  });

  it("keeps the 99,999-number picker to one page of buttons and searches instantly", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/sorteo/2");
    const grid = page.getByRole("group", { name: "Números disponibles" });
    await grid.waitFor();
    expect(await grid.getByRole("button").count()).toBeLessThanOrEqual(64);
    const label = (await grid.getByRole("button").nth(40).textContent()) as string;
    expect(label).toHaveLength(5);
    const started = Date.now();
    await page.getByLabel("Buscar número").fill(label);
    await page.getByText(/^1 encontrados$/).waitFor();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await grid.getByRole("button").count()).toBe(1);
    await context.close();
  });
});
