import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page, WebSocketRoute } from "playwright-core";
import { quicknetRoundTime } from "@/lib/admin/draw";
import { FIRST_PRIZE, apiURL, dismissDialog, horizontalOverflow, launch, newPage, postPurchase, screenshot, seriousViolations } from "./helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const admin = () => ({ username: inject("adminUsername"), password: inject("adminPassword") });
const operator = () => ({ username: inject("operatorUsername"), password: inject("operatorPassword") });
/** A real photo as the payment proof (the site's default raffle image, 29 KB JPEG). */
const JPEG = readFileSync(resolve(import.meta.dirname, "../../public/images/raffle-default.jpg"));
/** The 999-number demo raffle on sale (limits 1..20, 5.00 each). */
const RAFFLE = 3;

async function apiToken(who: { username: string; password: string }): Promise<string> {
  const response = await fetch(`${apiURL()}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(who),
  });
  if (!response.ok) throw new Error(`login ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** `count` available numbers of a raffle, from the top so the picker tests keep the low ones. */
async function freeNumbers(raffleId: number, count: number): Promise<number[]> {
  const tickets = (await (await fetch(`${apiURL()}/api/raffles/${raffleId}/tickets`)).json()) as { ticketNumber: number }[];
  const numbers = tickets.map((t) => t.ticketNumber).sort((a, b) => b - a);
  // Skip a random stretch so reruns against one database do not collide.
  const skip = Math.floor(Math.random() * 50);
  return numbers.slice(skip, skip + count);
}

type Bought = { id: number; reference: string; purchaseToken: string; customerId: string; customerPhone: string };

let buyers = 0;
/**
 * A buyer's purchase straight through the API, each by another person (ID document and phone):
 * one person may hold only a raffle's per-purchase maximum across their purchases (issue 14).
 */
async function buyAs(raffleId: number, numbers: number[], email: string, name: string): Promise<Bought> {
  const person = ++buyers;
  const customerId = `V${20_000_000 + person}`;
  const customerPhone = `0414${2_000_000 + person}`;
  const quote = (await (await fetch(`${apiURL()}/api/raffles/${raffleId}/quote?count=${numbers.length}`)).json()) as { total: string };
  const response = await postPurchase(raffleId, numbers, quote.total, { name, id: customerId, email, phone: customerPhone });
  if (response.status !== 201) throw new Error(`purchase: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { purchase: { id: number; reference: string }; purchaseToken: string };
  return { id: body.purchase.id, reference: body.purchase.reference, purchaseToken: body.purchaseToken, customerId, customerPhone };
}

/** Request → PUT → attach, as the purchase form does. */
async function attachProof(p: Bought, file: Buffer, name: string, type: string) {
  const target = (await (
    await fetch(`${apiURL()}/api/objects/upload`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ filename: name, contentType: type, size: file.length, purchaseId: p.id, purchaseToken: p.purchaseToken }),
    })
  ).json()) as { uploadURL: string; uploadHeaders?: Record<string, string> };
  const url = new URL(target.uploadURL, apiURL()).toString();
  const put = await fetch(url, { method: "PUT", headers: target.uploadHeaders ?? { "Content-Type": type }, body: new Uint8Array(file) });
  expect(put.ok).toBe(true);
  const attach = await fetch(`${apiURL()}/api/purchases/${p.id}/payment-proof`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ paymentProofURL: target.uploadURL, purchaseToken: p.purchaseToken }),
  });
  expect(attach.ok).toBe(true);
}

/** Signs in through the login form, up to the dashboard's address (tabs, or the choice of a password). */
async function signInTo(page: Page, who: { username: string; password: string }) {
  await page.goto("/admin");
  await page.waitForURL("**/admin/login");
  await page.getByLabel("Usuario").fill(who.username);
  await page.getByLabel("Contraseña").fill(who.password);
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await page.waitForURL("**/admin/dashboard");
}

async function signIn(page: Page, who: { username: string; password: string }) {
  await signInTo(page, who);
  await page.getByTestId("admin-tabs").waitFor();
}

/** 'Sí, aprobar' on a purchase without a proof, then the answer to the second question (issue 31). */
async function approveWithoutProof(page: Page) {
  const decision = page.getByTestId("decision-dialog");
  await decision.getByTestId("confirm-decision").click();
  await decision.locator("[data-testid=confirm-decision][data-step=no-proof]").click();
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();
const row = (page: Page, reference: string) => page.locator(`[data-testid=purchase-row][data-reference="${reference}"]`);

/** An admin read straight from the API. */
async function adminApi<T>(path: string, who = admin()): Promise<T> {
  const response = await fetch(`${apiURL()}${path}`, { headers: { Authorization: `Bearer ${await apiToken(who)}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return (await response.json()) as T;
}

/** The browser's local day and offset, as the panel sends them. */
async function browserDay(page: Page): Promise<{ day: string; offset: number; es: string }> {
  return page.evaluate(() => {
    const now = new Date();
    const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
    return { day, offset: -now.getTimezoneOffset(), es: `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}` };
  });
}

/** The digits of a figure, so "US$ 1.234,00" compares with the API's "1234.00". */
const digits = (text: string | null) => (text ?? "").replace(/\D/g, "");

/** A raffle on sale created for one test (its own numbers, no other purchases). */
async function newRaffle(title: string): Promise<number> {
  const response = await fetch(`${apiURL()}/api/admin/raffles`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await apiToken(admin())}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title, description: "Sorteo de una prueba de navegador", price: 2, maxTickets: 500, maxTicketsPerPurchase: 20, drawDate: "2030-01-15", prizes: [FIRST_PRIZE] }),
  });
  if (response.status !== 201) throw new Error(`raffle: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}

describe("admin session", () => {
  it("guards the panel, checks the form, signs in and out", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    // No session: the dashboard is out of reach.
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    expect(await page.getByRole("link", { name: "Volver al inicio" }).getAttribute("href")).toBe("/");

    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    expect(await page.locator("form [role=alert]").textContent()).toContain("Por favor completa todos los campos");

    await page.getByLabel("Usuario").fill(admin().username);
    await page.getByLabel("Contraseña").fill("wrong-password");
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await toast(page, "Error en el login").waitFor();
    expect(page.url()).toContain("/admin/login");
    await screenshot(page, "admin-login-1280");

    await signIn(page, admin());
    expect(await page.getByTestId("admin-username").textContent()).toContain(admin().username);
    const stored = await page.evaluate(() => [localStorage.getItem("auth_token"), localStorage.getItem("auth_user")]);
    expect(stored[0]).toMatch(/^ey/);
    expect(JSON.parse(stored[1] as string)).toMatchObject({ username: admin().username, privileged: true, role: "admin" });

    // The login page sends a signed-in admin on to the dashboard.
    await page.goto("/admin/login");
    await page.waitForURL("**/admin/dashboard");

    await page.getByTestId("logout").click();
    await page.waitForURL("**/admin/login");
    await toast(page, "Sesión cerrada").waitFor();
    expect(await toast(page, "Sesión cerrada").textContent()).toContain("Has cerrado sesión exitosamente");
    expect(await page.evaluate(() => [localStorage.getItem("auth_token"), localStorage.getItem("auth_user")])).toEqual([null, null]);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    await context.close();
  });

  it("logs out an expired token and removes corrupt user data on load", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await page.goto("/admin/login");
    const expired = `e30.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 })).toString("base64url")}.x`;
    await page.evaluate((token) => {
      localStorage.setItem("auth_token", token);
      localStorage.setItem("auth_user", JSON.stringify({ id: 1, username: "admin", role: "admin", authenticated: true, privileged: true }));
    }, expired);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();

    const token = await apiToken(admin());
    await page.evaluate((t) => {
      localStorage.setItem("auth_token", t);
      localStorage.setItem("auth_user", "{broken");
    }, token);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    expect(await page.evaluate(() => [localStorage.getItem("auth_token"), localStorage.getItem("auth_user")])).toEqual([null, null]);
    await context.close();
  });
});

describe("who may use the panel", () => {
  it("lets in only a stored user with role admin (SPEC §6)", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await page.goto("/admin/login");
    // A real, valid token, but the stored user is not an admin: the panel stays closed and the
    // login page does not bounce back to it.
    const token = await apiToken(admin());
    await page.evaluate((t) => {
      localStorage.setItem("auth_token", t);
      localStorage.setItem("auth_user", JSON.stringify({ id: 1, username: "admin", role: "visitor", authenticated: true, privileged: true }));
    }, token);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe("/admin/login");
    expect(await page.getByTestId("admin-tabs").count()).toBe(0);
    // The same token with role admin opens it.
    await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem("auth_user") as string);
      localStorage.setItem("auth_user", JSON.stringify({ ...user, role: "admin" }));
    });
    await page.goto("/admin/dashboard");
    await page.getByTestId("admin-tabs").waitFor();
    await context.close();
  });
});

describe("a token the server refuses", () => {
  it("signs the admin out with 'Sesión expirada' when the API answers 401", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await page.goto("/admin/login");
    const token = await apiToken(admin());
    // Same claims (a valid exp), broken signature: only the server can tell.
    const forged = `${token.slice(0, token.lastIndexOf(".") + 1)}AAAA${token.slice(token.lastIndexOf(".") + 5)}`;
    await page.evaluate((t) => {
      localStorage.setItem("auth_token", t);
      localStorage.setItem("auth_user", JSON.stringify({ id: 1, username: "admin", role: "admin", authenticated: true, privileged: true }));
    }, forged);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    await toast(page, "Sesión expirada").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    await context.close();
  });
});

describe("purchase verification", () => {
  it("approves one pending purchase, rejects another with notes, and the buyer's lookup reflects both", async () => {
    const email = `comprador-${Date.now()}@example.com`;
    const [n1, n2] = await freeNumbers(RAFFLE, 2);
    const approved = await buyAs(RAFFLE, [n1 as number], email, "Comprador Aprobado");
    const rejected = await buyAs(RAFFLE, [n2 as number], email, "Comprador Rechazado");
    await attachProof(rejected, JPEG, "pago.jpg", "image/jpeg");

    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    expect(await page.getByTestId("admin-tabs").getByRole("tab").count()).toBe(9);

    // Server-side name filter, then approve from the table with a confirmation.
    await page.getByLabel("Nombre del cliente").fill("comprador aprobado");
    await page.getByTestId("all-showing").filter({ hasText: "Mostrando 1-1 de 1 compra" }).waitFor();
    await row(page, approved.reference).waitFor();
    await expect.poll(() => page.getByTestId("purchase-row").count(), { timeout: 10_000 }).toBe(1);
    await row(page, approved.reference).getByRole("button", { name: `Aprobar compra ${approved.reference}` }).click();
    const decision = page.getByTestId("decision-dialog");
    await approveWithoutProof(page);
    await toast(page, "Compra actualizada").waitFor();
    await row(page, approved.reference).getByText("Aprobada").waitFor();
    expect(await row(page, approved.reference).getByRole("button", { name: /Aprobar/ }).count()).toBe(0);

    // Ticket-number filter, then reject from the detail dialog: notes are required.
    await page.getByLabel("Nombre del cliente").fill("");
    await page.getByLabel("Números de boleto").fill(String(n2));
    await row(page, rejected.reference).waitFor();
    await row(page, rejected.reference).getByRole("button", { name: `Ver compra ${rejected.reference}` }).click();
    const detail = page.getByTestId("purchase-detail");
    await detail.getByText("Comprador Rechazado").first().waitFor();
    for (const text of [email, rejected.customerPhone, "Venezuela", rejected.customerId, rejected.reference, "Pendiente"]) {
      expect(await detail.textContent()).toContain(text);
    }
    // The proof shows as an image (max 400 px) that opens a zoom view.
    const proof = detail.getByTestId("proof-image").locator("img");
    await proof.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("[data-testid=proof-image] img");
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect((await proof.boundingBox())?.height ?? 999).toBeLessThanOrEqual(400);
    await screenshot(page, "admin-detail-1280");
    await detail.getByRole("button", { name: "Ampliar comprobante" }).click();
    await dismissDialog(page, "proof-zoom");
    await detail.getByRole("button", { name: "Rechazar" }).click();
    const confirm = decision.getByTestId("confirm-decision");
    expect(await confirm.isDisabled()).toBe(true);
    await decision.getByRole("textbox").fill("   ");
    expect(await confirm.isDisabled()).toBe(true);
    await decision.getByRole("textbox").fill("Referencia de pago no encontrada");
    await confirm.click();
    await toast(page, "Compra actualizada").waitFor();
    await row(page, rejected.reference).getByText("Rechazada").waitFor();
    await row(page, rejected.reference).getByRole("button", { name: `Ver compra ${rejected.reference}` }).click();
    await page.getByTestId("detail-notes").filter({ hasText: "Referencia de pago no encontrada" }).waitFor();
    await page.keyboard.press("Escape");

    // The buyer's lookup: the approved purchase shows as approved, the rejected one is gone.
    const buyer = await newPage(browser);
    await buyer.page.goto("/#verificar");
    await buyer.page.getByLabel("Correo electrónico").fill(email);
    await buyer.page.getByRole("button", { name: "Verificar", exact: true }).click();
    const results = buyer.page.getByTestId("verify-results");
    await results.waitFor();
    const text = await results.textContent();
    expect(text).toContain(approved.reference);
    expect(text).toContain("Aprobado");
    expect(text).not.toContain(rejected.reference);
    await buyer.context.close();
    await context.close();
  });

  it("shows a PDF proof in a 400 px frame with open-in-new-tab", async () => {
    const [n] = await freeNumbers(RAFFLE, 1);
    const bought = await buyAs(RAFFLE, [n as number], `pdf-${Date.now()}@example.com`, "Cliente PDF");
    // A real one-page PDF: the API decodes proofs, cross-reference table included.
    const pdf = Buffer.from(
      [
        "%PDF-1.4",
        "1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj",
        "2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj",
        "3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj",
        "xref",
        "0 4",
        "0000000000 65535 f ",
        "0000000009 00000 n ",
        "0000000056 00000 n ",
        "0000000111 00000 n ",
        "trailer <</Size 4 /Root 1 0 R>>",
        "startxref",
        "180",
        "%%EOF",
        "",
      ].join("\n"),
    );
    await attachProof(bought, pdf, "pago.pdf", "application/pdf");
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await row(page, bought.reference).getByRole("button", { name: `Ver compra ${bought.reference}` }).click();
    const frame = page.getByTestId("proof-pdf").locator("iframe");
    await frame.waitFor();
    expect(Math.round((await frame.boundingBox())?.height ?? 0)).toBe(400);
    expect(await page.getByTestId("proof-pdf").getByRole("link", { name: "Abrir en otra pestaña" }).getAttribute("target")).toBe("_blank");
    await context.close();
  });
});

describe("purchase lists", () => {
  it("pages on the server and exports the filtered purchases as CSV", async () => {
    const token = await apiToken(admin());
    const all = (await (await fetch(`${apiURL()}/api/admin/purchases/search?page=1&pageSize=1`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { total: number };
    // Enough purchases for two pages of 10.
    for (let i = all.total; i < 12; i++) {
      const [n] = await freeNumbers(RAFFLE, 1);
      await buyAs(RAFFLE, [n as number], `pagina-${Date.now()}-${i}@example.com`, `Cliente Página ${i}`);
    }
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    const showing = page.getByTestId("all-showing");
    await showing.filter({ hasText: /^Mostrando 1-10 de \d+ compras$/ }).waitFor();
    const total = Number(/de (\d+) compras/.exec((await showing.textContent()) ?? "")?.[1]);
    const pages = Math.ceil(total / 10);
    expect(await page.getByTestId("all-page-of").textContent()).toBe(`Página 1 de ${pages}`);
    expect(await page.getByRole("button", { name: "Página anterior" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Página siguiente" }).click();
    await page.getByTestId("all-page-of").filter({ hasText: `Página 2 de ${pages}` }).waitFor();
    expect(await showing.textContent()).toBe(`Mostrando 11-${Math.min(20, total)} de ${total} compras`);
    expect(await page.locator("[aria-current=page]").textContent()).toBe("2");
    if (pages > 2) {
      await page.getByRole("button", { name: "Última página" }).click();
      await page.getByTestId("all-page-of").filter({ hasText: `Página ${pages} de ${pages}` }).waitFor();
    }
    expect(await page.getByRole("button", { name: "Última página" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Página siguiente" }).isDisabled()).toBe(true);

    // A filter goes back to page 1; the export holds exactly the filtered purchases.
    // Wait for the filtered list itself (page 1 is shown at once, over the old rows): its total is
    // the API's count of approved purchases.
    const approved = (await (await fetch(`${apiURL()}/api/admin/purchases/search?page=1&pageSize=1&status=approved`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { total: number };
    const approvedTotal = approved.total;
    await page.getByLabel("Estado").selectOption("approved");
    await showing.filter({ hasText: new RegExp(`de ${approvedTotal} compras$`) }).waitFor();
    await expect.poll(async () => (await page.getByTestId("purchase-row").allTextContents()).length).toBe(Math.min(10, approvedTotal));
    // The download is awaited to its end (path() waits for the file), with a budget for a slow export.
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.getByTestId("export-csv").click()]);
    const bytes = readFileSync(await download.path());
    // A UTF-8 byte-order mark, so spreadsheets read the accents right.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trim().split("\r\n");
    expect(lines[0]).toBe("id,reference,createdAt,status,raffleId,raffleTitle,ticketCount,ticketNumbers,totalAmount,discountApplied,paymentMethod,customerName,customerId,customerEmail,customerPhone,customerCountry,decidedAt,adminNotes");
    expect(lines).toHaveLength(approvedTotal + 1);
    expect(lines.slice(1).every((l) => l.split(",")[3] === "approved")).toBe(true);
    await toast(page, "CSV descargado").waitFor();
    await context.close();
  });
});

type Stats = { ticketsSold: number; totalRevenue: string; pendingPurchases: number; activeRaffles: number };
type Search = { total: number; totalPages: number; summary: { ticketsSold: number; totalRevenue: string; pendingPurchases: number } };
type Day = { date: string; revenue: string; ticketsSold: number; purchases: number };

describe("dashboard figures", () => {
  it("shows the four summary cards, the search's own figures apart, and the chart from one call that events do not repeat", async () => {
    const name = `Cliente Cifras ${Date.now()}`;
    const [n1, n2] = await freeNumbers(RAFFLE, 2);
    const bought = await buyAs(RAFFLE, [n1 as number, n2 as number], `cifras-${Date.now()}@example.com`, name);
    const { context, page } = await newPage(browser, 1280, 900);
    const calls: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith("/api/admin/")) calls.push(`${url.pathname}${url.search}`);
    });
    await signIn(page, admin());
    const stats = await adminApi<Stats>("/api/admin/stats");
    const card = (id: string) => page.getByTestId(id).locator("[data-value]");
    await card("card-tickets").waitFor();

    // The four cards (SPEC §2): the API's figures, each named for what it counts (issue 31).
    expect(await page.getByTestId("card-tickets").textContent()).toContain("Boletos vendidos (aprobados)");
    expect(await page.getByTestId("card-revenue").textContent()).toContain("Ingresos totales");
    expect(await page.getByTestId("card-revenue").textContent()).toContain("Solo compras aprobadas");
    expect(await page.getByTestId("card-pending").textContent()).toContain("Compras pendientes");
    expect(await page.getByTestId("card-active").textContent()).toContain("Sorteos activos");
    expect(digits(await card("card-tickets").textContent())).toBe(String(stats.ticketsSold));
    expect(digits(await card("card-revenue").textContent())).toBe(digits(stats.totalRevenue));
    expect(digits(await card("card-pending").textContent())).toBe(String(stats.pendingPurchases));
    expect(digits(await card("card-active").textContent())).toBe(String(stats.activeRaffles));
    // The tab's three figures cover the search and say so: no label repeats a card's.
    const labels = await Promise.all(["all-tickets", "all-revenue", "all-pending"].map(async (id) => (await page.getByTestId(id).locator("span").first().textContent()) ?? ""));
    expect(labels).toEqual(["Vendidos (aprobados) en esta búsqueda", "Ingresos de esta búsqueda", "Pendientes en esta búsqueda"]);
    await page.getByLabel("Nombre del cliente").fill(name);
    await page.getByTestId("all-showing").filter({ hasText: "Mostrando 1-1 de 1 compra" }).waitFor();
    await page.getByTestId("all-pending").locator("[data-value]").filter({ hasText: /^1$/ }).waitFor();
    expect(digits(await card("card-pending").textContent())).toBe(String(stats.pendingPurchases));

    // The chart: 14 days ending today, the API's daily series, read in one call.
    const { day, offset } = await browserDay(page);
    const chartDays = page.getByTestId("chart-day");
    await chartDays.first().waitFor({ state: "attached" });
    expect(await chartDays.count()).toBe(14);
    const first = await chartDays.first().getAttribute("data-day");
    expect(await chartDays.last().getAttribute("data-day")).toBe(day);
    const series = await adminApi<Day[]>(`/api/admin/stats/daily?from=${first}&to=${day}&utcOffsetMinutes=${offset}`);
    const drawn = await chartDays.evaluateAll((els) => els.map((e) => ({ date: e.getAttribute("data-day"), revenue: e.getAttribute("data-revenue"), tickets: Number(e.getAttribute("data-tickets")) })));
    expect(drawn).toEqual(series.map((d) => ({ date: d.date, revenue: d.revenue, tickets: d.ticketsSold })));
    expect(calls.filter((c) => c.startsWith("/api/admin/stats/daily"))).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith("/api/admin/stats?date="))).toHaveLength(0);

    // A decision refreshes the list and the cards at once, not the chart.
    const before = calls.length;
    await row(page, bought.reference).getByRole("button", { name: `Aprobar compra ${bought.reference}` }).click();
    await approveWithoutProof(page);
    await toast(page, "Compra actualizada").waitFor();
    await card("card-tickets").filter({ hasText: String(stats.ticketsSold + 2) }).waitFor();
    await page.waitForTimeout(1500);
    const after = calls.slice(before);
    expect(after.some((c) => c.startsWith("/api/admin/purchases/search"))).toBe(true);
    expect(after.filter((c) => c.startsWith("/api/admin/stats/daily"))).toEqual([]);
    expect(after.length).toBeLessThanOrEqual(4);
    await context.close();
  });

  it("filters by raffle and by a day written in the panel's language, and says when nothing matches", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    const showing = page.getByTestId("all-showing");
    await showing.filter({ hasText: /^Mostrando 1-/ }).waitFor();

    // Raffle filter: only that raffle's purchases, as many as the API counts.
    const raffles = await adminApi<{ id: number; title: string }[]>("/api/admin/raffles");
    const title = raffles.find((r) => r.id === RAFFLE)?.title as string;
    const byRaffle = await adminApi<Search>(`/api/admin/purchases/search?raffleId=${RAFFLE}&pageSize=1`);
    await page.getByLabel("Sorteo", { exact: true }).selectOption(String(RAFFLE));
    await showing.filter({ hasText: `de ${byRaffle.total} compras` }).waitFor();
    const cells = await page.getByTestId("purchase-row").evaluateAll((rows) => rows.map((r) => r.children[1]?.textContent ?? ""));
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => c.includes(title))).toBe(true);
    await page.getByLabel("Sorteo", { exact: true }).selectOption("");

    // Date filter: the day in dd/mm/aaaa, as the Spanish panel writes it.
    const { day, offset, es } = await browserDay(page);
    const date = page.getByLabel("Fecha", { exact: true });
    expect(await date.getAttribute("placeholder")).toBe("dd/mm/aaaa");
    const today = await adminApi<Search>(`/api/admin/purchases/search?date=${day}&utcOffsetMinutes=${offset}&pageSize=1`);
    await date.fill(es);
    await showing.filter({ hasText: `de ${today.total} compras` }).waitFor();
    await date.fill("01/01/2001");
    await page.getByTestId("all-empty").waitFor();
    expect(await page.getByTestId("all-empty").textContent()).toBe("No se encontraron compras con los filtros aplicados.");
    expect(await showing.textContent()).toBe("Mostrando 0-0 de 0 compras");
    await page.screenshot({ path: resolve(import.meta.dirname, "../../artefacts/screenshots/admin-empty-filter-1280.png") });
    await page.getByRole("button", { name: "Borrar fecha" }).click();
    expect(await date.inputValue()).toBe("");
    await showing.filter({ hasText: /^Mostrando 1-/ }).waitFor();

    // The calendar speaks the panel's language too; picking a day fills the field.
    await page.getByRole("button", { name: "Elegir en el calendario" }).click();
    const month = await page.getByTestId("calendar-month").textContent();
    expect(month?.toLowerCase()).toMatch(/^(enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}$/);
    expect(await page.getByTestId("date-calendar").locator("th").first().textContent()).toMatch(/^lun/i);
    await screenshot(page, "admin-calendar-1280");
    await page.getByTestId("date-calendar").getByRole("button", { name: /^[a-záéíóú]+, 15 de / }).click();
    expect(await date.inputValue()).toBe(`15/${es.slice(3)}`);
    await context.close();
  });

  it("brings the page back in range when approving empties the last page", async () => {
    const name = `Cola ${Date.now()}`;
    const numbers = await freeNumbers(RAFFLE, 11);
    for (const [i, n] of numbers.entries()) await buyAs(RAFFLE, [n], `cola-${Date.now()}-${i}@example.com`, `${name} ${i}`);
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByLabel("Nombre del cliente").fill(name);
    await page.getByLabel("Estado").selectOption("pending");
    await page.getByTestId("all-showing").filter({ hasText: "Mostrando 1-10 de 11 compras" }).waitFor();
    await page.getByTestId("all-page-of").filter({ hasText: "Página 1 de 2" }).waitFor();
    await page.getByRole("button", { name: "Última página" }).click();
    await page.getByTestId("all-page-of").filter({ hasText: "Página 2 de 2" }).waitFor();
    // The rows of the page before stay on screen until the new page's arrive.
    await expect.poll(() => page.getByTestId("purchase-row").count(), { timeout: 10_000 }).toBe(1);
    await page.getByTestId("purchase-row").getByRole("button", { name: /^Aprobar compra/ }).click();
    await approveWithoutProof(page);
    await toast(page, "Compra actualizada").waitFor();

    await page.getByTestId("all-page-of").filter({ hasText: "Página 1 de 1" }).waitFor();
    await page.getByTestId("all-showing").filter({ hasText: "Mostrando 1-10 de 10 compras" }).waitFor();
    await expect.poll(() => page.getByTestId("purchase-row").count(), { timeout: 10_000 }).toBe(10);
    expect(await page.getByTestId("all-empty").count()).toBe(0);
    await context.close();
  });
});

describe("the sales chart on a phone", () => {
  it("is drawn at the screen's width with text of 12 px, not scaled down", async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await signIn(page, admin());
    const chart = page.getByTestId("sales-chart");
    await chart.getByTestId("chart-day").first().waitFor({ state: "attached" });
    const svg = chart.locator("svg");
    const box = await svg.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(box!.width).toBeGreaterThan(300);
    // Rendered glyph height of the day labels: at a 900-unit viewBox scaled to ~330 px it was ~4 px.
    const heights = await chart.getByTestId("chart-label").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThanOrEqual(4);
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(11);
    // Labels do not run into each other.
    const lefts = await chart.getByTestId("chart-label").evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
    for (let i = 1; i < lefts.length; i++) expect(lefts[i]![0]!).toBeGreaterThan(lefts[i - 1]![1]!);
    await screenshot(page, "admin-chart-390");
    await context.close();
  });
});

describe("daily purchases", () => {
  it("lists today's purchases with their first three numbers, today's figures, filters and the empty message", async () => {
    const name = `Cliente Del Día ${Date.now()}`;
    const numbers = (await freeNumbers(RAFFLE, 5)).sort((a, b) => a - b);
    const bought = await buyAs(RAFFLE, numbers, `dia-${Date.now()}@example.com`, name);
    const empty = await newRaffle(`Sorteo sin compras ${Date.now()}`);
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Compras del día" }).click();
    const panel = page.getByTestId("daily-panel");
    expect(await panel.getByRole("heading", { name: "Compras de hoy" }).count()).toBe(1);
    const mine = panel.locator(`[data-testid=purchase-row][data-reference="${bought.reference}"]`);
    await mine.waitFor();
    // SPEC §9: the first 3 numbers, then '+N'.
    const cell = await mine.locator("td").nth(2).textContent();
    expect(cell).toBe(`${numbers.slice(0, 3).map((n) => String(n).padStart(4, "0")).join("")}+2`);

    const { day, offset } = await browserDay(page);
    const today = await adminApi<Stats>(`/api/admin/stats?date=${day}&utcOffsetMinutes=${offset}`);
    const figure = (id: string) => panel.getByTestId(id);
    await figure("today-tickets").locator("[data-value]").waitFor();
    expect(await figure("today-tickets").textContent()).toContain("Vendidos (aprobados) hoy");
    expect(await figure("today-revenue").textContent()).toContain("Ingresos de hoy");
    expect(await figure("today-pending").textContent()).toContain("Pendientes de hoy");
    expect(digits(await figure("today-tickets").locator("[data-value]").textContent())).toBe(String(today.ticketsSold));
    expect(digits(await figure("today-revenue").locator("[data-value]").textContent())).toBe(digits(today.totalRevenue));
    expect(digits(await figure("today-pending").locator("[data-value]").textContent())).toBe(String(today.pendingPurchases));

    // Status filter: a pending purchase is not among today's approved ones.
    await panel.getByLabel("Estado").selectOption("approved");
    await mine.waitFor({ state: "detached" });
    await panel.getByLabel("Estado").selectOption("all");
    await mine.waitFor();
    // A raffle without purchases today: the daily empty message.
    await panel.getByLabel("Sorteo", { exact: true }).selectOption(String(empty));
    await page.getByTestId("today-empty").waitFor();
    expect(await page.getByTestId("today-empty").textContent()).toBe("No se encontraron compras para hoy.");
    await context.close();
  });
});

describe("live notices and the public purchase flow", () => {
  it("a purchase with a real proof in another browser shows 'Nueva Compra' to the admin, with receipt and invoice", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.locator("[data-testid=live-state][data-state=live]").waitFor({ timeout: 15_000 });

    const buyer = await newPage(browser);
    const b = buyer.page;
    const errors: string[] = [];
    b.on("pageerror", (e) => errors.push(e.message));
    await b.goto(`/sorteo/${RAFFLE}`);
    const [n] = await freeNumbers(RAFFLE, 1);
    const label = String(n).padStart(4, "0");
    await b.getByLabel("Buscar número").fill(label);
    await b.getByRole("button", { name: `Número ${label}`, exact: true }).click();
    await b.getByLabel("Nombre completo").fill("Valentina Live");
    await b.getByLabel("Cédula o pasaporte").fill("V20111222");
    await b.getByLabel("Correo electrónico").fill(`live-${Date.now()}@example.com`);
    await b.getByLabel("Teléfono (WhatsApp)").fill("0412 555 1234");
    await b.getByLabel("País").selectOption("venezuela");
    const method = b.getByLabel("Método de pago");
    await method.selectOption((await method.locator("option").nth(1).getAttribute("value")) ?? "");
    await b.locator("#paymentProof").setInputFiles({ name: "comprobante.jpg", mimeType: "image/jpeg", buffer: JPEG });
    await b.getByRole("checkbox").check();
    await b.getByRole("button", { name: /^Comprar 1 boleto/ }).click();
    await b.getByTestId("receipt-dialog").waitFor({ timeout: 15_000 });
    const reference = ((await b.getByTestId("receipt-reference").textContent()) ?? "").trim();
    expect(reference).toMatch(/^RF-/);

    // The invoice window opens (800×1000) with this purchase.
    const [popup] = await Promise.all([
      buyer.context.waitForEvent("page"),
      b.getByRole("button", { name: "Descargar comprobante PDF" }).click(),
    ]);
    await popup.waitForURL(/\/api\/purchases\/\d+\/invoice/);
    await popup.waitForLoadState();
    expect(await popup.content()).toContain(reference);
    await popup.close();
    expect(errors).toEqual([]);

    // The admin hears of it live and the list refreshes.
    await toast(page, "Nueva Compra").waitFor({ timeout: 10_000 });
    expect(await toast(page, "Nueva Compra").textContent()).toContain("Valentina Live");
    await row(page, reference).waitFor({ timeout: 10_000 });
    await screenshot(page, "admin-live-toast-1280");

    // 'Ver' in the toast opens that purchase; the proof the buyer uploaded is attached and shows.
    await toast(page, "Nueva Compra").getByRole("button", { name: "Ver" }).click();
    await page.getByTestId("purchase-detail").locator("[data-slot=dialog-description]").filter({ hasText: reference }).waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("[data-testid=proof-image] img");
      return img !== null && img.complete && img.naturalWidth > 100;
    });
    await buyer.context.close();
    await context.close();
  });
});

describe("payment reference and proof check", () => {
  it(
    "asks the reference a method requires, refuses it twice, and shows it with the proof's check in the purchase's dialog",
    { timeout: 300_000 },
    async () => {
      const token = await apiToken(admin());
      const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
      const methodName = `Pago Móvil con referencia ${Date.now()}`;
      const created = await fetch(`${apiURL()}/api/admin/payment-methods`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: methodName, type: "digital", active: true, details: { telefono: "0414-555-1234" }, referenceRequired: true, referenceMinLength: 6 }),
      });
      expect(created.status).toBe(201);
      const method = (await created.json()) as { id: number; referenceRequired: boolean; referenceMinLength: number };
      expect(method).toMatchObject({ referenceRequired: true, referenceMinLength: 6 });
      const typed = `0102-${String(Date.now()).slice(-8)}`;
      const stamp = String(Date.now()).slice(-7);
      try {
        // The buyer, on a phone: the field is marked required with its minimum, and checked.
        const buyer = await newPage(browser, 390, 844);
        const b = buyer.page;
        const errors: string[] = [];
        b.on("pageerror", (e) => errors.push(e.message));
        await b.goto(`/sorteo/${RAFFLE}`);
        const [n] = await freeNumbers(RAFFLE, 1);
        const label = String(n).padStart(4, "0");
        await b.getByLabel("Buscar número").fill(label);
        await b.getByRole("button", { name: `Número ${label}`, exact: true }).click();
        await b.getByLabel("Buscar número").fill("");
        await b.getByLabel("Nombre completo").fill("Rosa Referencia");
        await b.getByLabel("Cédula o pasaporte").fill(`V3${stamp}`);
        await b.getByLabel("Correo electrónico").fill(`referencia-${Date.now()}@example.com`);
        await b.getByLabel("Teléfono (WhatsApp)").fill(`0416${stamp}`);
        await b.getByLabel("País").selectOption("venezuela");
        const reference = b.getByLabel("Número de referencia");
        expect(await reference.getAttribute("maxlength")).toBe("40");
        expect(await reference.getAttribute("autocomplete")).toBe("off");
        expect(await b.getByTestId("reference-tag").textContent()).toBe("(opcional)");
        await b.getByLabel("Método de pago").selectOption(String(method.id));
        expect(await b.getByTestId("reference-tag").textContent()).toBe("(obligatorio)");
        expect(await b.locator("#paymentReference-hint").textContent()).toBe("Al menos 6 letras o números");
        // A receipt with text on it, drawn in the page, so a server with OCR has an amount and a
        // reference to read (and the dialog something to mark).
        const receipt = await b.evaluate((lines) => {
          const canvas = document.createElement("canvas");
          canvas.width = 900;
          canvas.height = 80 + lines.length * 70;
          const ctx = canvas.getContext("2d")!;
          ctx.fillStyle = "#fff";
          ctx.fillRect(0, 0, canvas.width, canvas.height);
          ctx.fillStyle = "#000";
          ctx.font = "40px sans-serif";
          lines.forEach((line, i) => ctx.fillText(line, 40, 80 + i * 70));
          return canvas.toDataURL("image/png").split(",")[1]!;
        }, ["Banesco Pago Movil", "Operacion exitosa", "Monto: $ 5,00", `Referencia: ${typed.replace("-", "")}`, "Fecha: 27/11/2026"]);
        await b.locator("#paymentProof").setInputFiles({ name: "comprobante.png", mimeType: "image/png", buffer: Buffer.from(receipt, "base64") });
        await b.getByRole("checkbox").check();
        await reference.fill("12-34");
        await b.getByRole("button", { name: /^Comprar 1 boleto/ }).click();
        expect(await b.locator("#paymentReference-error").textContent()).toBe("Al menos 6 letras o números");
        await reference.fill(typed);
        await b.locator("#paymentReference-error").waitFor({ state: "detached" });
        expect(await horizontalOverflow(b)).toBe(0);
        const box = await reference.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        await reference.scrollIntoViewIfNeeded();
        await screenshot(b, "purchase-reference-390", { fullPage: false });
        await b.setViewportSize({ width: 1440, height: 900 });
        expect(await horizontalOverflow(b)).toBe(0);
        await reference.scrollIntoViewIfNeeded();
        await screenshot(b, "purchase-reference-1440", { fullPage: false });
        await b.setViewportSize({ width: 390, height: 844 });
        await b.getByRole("button", { name: /^Comprar 1 boleto/ }).click();
        await b.getByTestId("receipt-dialog").waitFor({ timeout: 15_000 });
        const bought = ((await b.getByTestId("receipt-reference").textContent()) ?? "").trim();
        expect(bought).toMatch(/^RF-/);
        expect(errors).toEqual([]);
        await buyer.context.close();

        // The same reference with the same method again: refused, in the buyer's language.
        const [m] = await freeNumbers(RAFFLE, 1);
        const quote = (await (await fetch(`${apiURL()}/api/raffles/${RAFFLE}/quote?count=1`)).json()) as { total: string };
        const again = new FormData();
        for (const [k, v] of Object.entries({
          customerName: "Otra Persona",
          customerId: `V4${stamp}`,
          customerEmail: `otra-${Date.now()}@example.com`,
          customerPhone: `0424${stamp}`,
          customerCountry: "venezuela",
          paymentMethod: String(method.id),
          paymentReference: typed.replace("-", " "),
          raffleId: String(RAFFLE),
          ticketNumbers: JSON.stringify([m]),
          totalAmount: quote.total,
          discountApplied: "0",
          acceptTerms: "true",
        })) {
          again.set(k, v);
        }
        const refused = await fetch(`${apiURL()}/api/raffles/${RAFFLE}/purchase`, { method: "POST", body: again, headers: { "Accept-Language": "es" } });
        expect(refused.status).toBe(409);
        expect(((await refused.json()) as { code: string }).code).toBe("payment_reference_used");

        // The admin: the reference among the purchase's fields, the proof's check beside the proof.
        const { context, page } = await newPage(browser, 1440, 900);
        await signIn(page, admin());
        await row(page, bought).getByRole("button", { name: `Ver compra ${bought}` }).click();
        const detail = page.getByTestId("purchase-detail");
        expect(await detail.getByTestId("detail-payment-reference").textContent()).toBe(typed);
        const check = detail.getByTestId("proof-check");
        await check.waitFor();
        expect(await check.getByRole("heading").first().textContent()).toBe("Verificación del comprobante");
        expect(digits(await check.getByTestId("proof-check-expected").textContent())).toMatch(/^\d+$/);
        await expect.poll(() => check.getAttribute("data-status"), { timeout: 15_000 }).toMatch(/^(pending|done|failed)$/);
        // The check runs in the background every few seconds; the dialog reads it again meanwhile.
        await page
          .locator("[data-testid=proof-check][data-status=done], [data-testid=proof-check][data-status=failed]")
          .waitFor({ timeout: 30_000 })
          .catch(() => undefined);
        const status = await check.getAttribute("data-status");
        if (status === "done") {
          expect(await check.getByTestId("proof-check-light").getAttribute("data-light")).toMatch(/^(green|amber|red)$/);
          expect(await check.getByTestId("proof-check-signals").locator("li").count()).toBeGreaterThan(0);
          const text = check.getByTestId("proof-check-text");
          if (await text.count()) {
            await text.locator("summary").click();
            await text.locator("pre").waitFor();
          }
        } else if (status === "pending") {
          expect(await check.getByTestId("proof-check-pending").textContent()).toBe("Revisando el comprobante…");
        }
        await check.scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await screenshot(page, "admin-proof-check-1440", { fullPage: false });
        expect(await seriousViolations(page)).toEqual([]);
        // Another purchase a signal names (the same demo photo is attached to others) opens here.
        const other = check.getByTestId("open-other-purchase").first();
        if (await other.count()) {
          const otherId = await other.getAttribute("data-purchase-id");
          await other.click();
          await page.locator(`[data-testid=purchase-detail][data-purchase-id="${otherId}"]`).waitFor();
          await detail.getByTestId("detail-back").click();
          await detail.getByTestId("detail-payment-reference").filter({ hasText: typed }).waitFor();
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await check.waitFor();
        const fits = await detail.evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(fits).toBe(0);
        expect(await horizontalOverflow(page)).toBe(0);
        await check.evaluate((el) => el.scrollIntoView({ block: "start", behavior: "instant" }));
        await page.waitForTimeout(300);
        await screenshot(page, "admin-proof-check-390", { fullPage: false });
        await page.keyboard.press("Escape");

        // The methods list says the reference is required, with its minimum.
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.getByRole("tab", { name: "Métodos de pago" }).click();
        const listed = page.locator(`[data-testid=method-row][data-name="${methodName}"]`);
        expect(await listed.getByTestId("method-reference").textContent()).toBe("Referencia obligatoria (mín. 6)");
        await context.close();
      } finally {
        await fetch(`${apiURL()}/api/admin/payment-methods/${method.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
      }
    },
  );

  it("saves a method's reference rules from its dialog", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Métodos de pago" }).click();
    await page.getByRole("button", { name: "Agregar método" }).click();
    const dialog = page.getByTestId("method-dialog");
    const name = `Transferencia con referencia ${Date.now()}`;
    await dialog.getByLabel("Nombre *").fill(name);
    const minimum = dialog.getByLabel("Mínimo de letras o números");
    expect(await minimum.isDisabled()).toBe(true);
    await dialog.getByRole("checkbox", { name: "Exigir número de referencia" }).check();
    await minimum.fill("31");
    await dialog.getByTestId("save-method").click();
    await dialog.getByText("Debe estar entre 0 y 30").waitFor();
    await minimum.fill("8");
    await screenshot(page, "admin-method-reference-1280", { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    await minimum.scrollIntoViewIfNeeded();
    await screenshot(page, "admin-method-reference-390", { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByTestId("save-method").click();
    await toast(page, "Método de pago creado").waitFor();
    const created = page.locator(`[data-testid=method-row][data-name="${name}"]`);
    expect(await created.getByTestId("method-reference").textContent()).toBe("Referencia obligatoria (mín. 8)");
    const methods = await adminApi<{ id: number; name: string; referenceRequired: boolean; referenceMinLength: number }[]>("/api/admin/payment-methods");
    const saved = methods.find((m) => m.name === name);
    expect(saved).toMatchObject({ referenceRequired: true, referenceMinLength: 8 });
    await created.getByRole("button", { name: `Eliminar método ${name}` }).click();
    await page.getByTestId("confirm-delete-button").click();
    await created.waitFor({ state: "detached" });
    await context.close();
  });
});

/** A `side`×`side` grey PNG of random noise: a picture no other proof resembles. */
function noisePng(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  const rows = Buffer.concat(Array.from({ length: side }, () => Buffer.concat([Buffer.from([0]), randomBytes(side)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

describe("the review queue", () => {
  it(
    "lists proofs by light, compares a reused one side by side, approves the greens and rejects the reds in bulk",
    { timeout: 400_000 },
    async () => {
      const token = await apiToken(admin());
      const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
      const stamp = Date.now();
      const raffleResponse = await fetch(`${apiURL()}/api/admin/raffles`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ title: `Cola de revisión ${stamp}`, description: "Sorteo de la cola de revisión", price: "170", maxTickets: 100, maxTicketsPerPurchase: 5, drawDate: "2030-01-15", prizes: [FIRST_PRIZE] }),
      });
      expect(raffleResponse.status).toBe(201);
      const raffle = ((await raffleResponse.json()) as { id: number }).id;
      const methodResponse = await fetch(`${apiURL()}/api/admin/payment-methods`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: `Zelle cola ${stamp}`, type: "digital", active: true, details: { email: "pagos@example.com" } }),
      });
      expect(methodResponse.status).toBe(201);
      const method = ((await methodResponse.json()) as { id: number }).id;
      const corpus = (file: string) => readFileSync(resolve(import.meta.dirname, "../../../crates/adapters/proofs/tests/corpus", file));

      /** One number of the raffle, paid with the Zelle-like method, by its own buyer. */
      async function buy(number: number, name: string, reference?: string): Promise<Bought> {
        const person = ++buyers;
        const customerId = `V${20_000_000 + person}`;
        const customerPhone = `0414${2_000_000 + person}`;
        const form = new FormData();
        for (const [k, v] of Object.entries({
          customerName: name,
          customerId,
          customerEmail: `cola-${person}-${stamp}@example.com`,
          customerPhone,
          customerCountry: "venezuela",
          paymentMethod: String(method),
          ...(reference ? { paymentReference: reference } : {}),
          raffleId: String(raffle),
          ticketNumbers: JSON.stringify([number]),
          totalAmount: "170.00",
          discountApplied: "0",
          acceptTerms: "true",
        })) {
          form.set(k, v);
        }
        const response = await fetch(`${apiURL()}/api/raffles/${raffle}/purchase`, { method: "POST", body: form });
        if (response.status !== 201) throw new Error(`purchase: ${response.status} ${await response.text()}`);
        const body = (await response.json()) as { purchase: { id: number; reference: string }; purchaseToken: string };
        return { id: body.purchase.id, reference: body.purchase.reference, purchaseToken: body.purchaseToken, customerId, customerPhone };
      }
      /** Waits for the background check of a purchase's proof (OCR takes about a second a proof). */
      async function checked(id: number): Promise<void> {
        await expect
          .poll(async () => (await adminApi<{ status: string }>(`/api/admin/purchases/${id}/proof-check`)).status, { timeout: 60_000, interval: 1_000 })
          .toMatch(/^(done|failed)$/);
      }

      try {
        // zelle-04: a Zelle payment of $170.00, confirmation WFCTh87wdy6q; the buyer typed it.
        const green = await buy(1, "Gabriela Verde", "WFCTh87wdy6q");
        await attachProof(green, corpus("zelle-04-original.png"), "pago.png", "image/png");
        await checked(green.id);
        // The same picture recompressed, for another purchase: reused.
        const red = await buy(2, "Rodrigo Rojo");
        await attachProof(red, corpus("zelle-04-jpeg.jpg"), "pago.jpg", "image/jpeg");
        // Noise: nothing to read, and like no other proof (the shared tiny PNG is attached by
        // other tests, so it would be an exact reuse here).
        const amber = await buy(3, "Amelia Ámbar");
        await attachProof(amber, noisePng(64), "pago.png", "image/png");
        type Queue = { items: { purchase: { id: number }; light: string | null }[] };
        const lights = async () => {
          const queue = await adminApi<Queue>("/api/admin/proof-queue?order=newest&limit=100");
          return [green, red, amber].map((p) => queue.items.find((i) => i.purchase.id === p.id)?.light ?? null);
        };
        await expect.poll(lights, { timeout: 60_000, interval: 1_000 }).toEqual(["green", "red", "amber"]);

        const { context, page } = await newPage(browser, 1440, 900);
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await signIn(page, admin());
        const phone = () => (page.viewportSize()?.width ?? 1440) < 640;
        const item = (reference: string) => page.locator(`[data-testid=${phone() ? "queue-item" : "queue-row"}][data-reference="${reference}"]`);
        const words = {
          es: { queue: "Cola de revisión", light: "Luz", order: "Orden", compare: `Comparar con el comprobante de la compra #${green.id}`, view: "Ver compra" },
          en: { queue: "Review queue", light: "Light", order: "Order", compare: `Compare with the proof of purchase #${green.id}`, view: "View purchase" },
        } as const;
        const problems: string[] = [];

        for (const lang of ["es", "en"] as const) {
          const w = words[lang];
          if (lang === "en") {
            await page.setViewportSize({ width: 1440, height: 900 });
            await page.getByTestId("language-toggle").click();
          }
          await page.getByRole("tab", { name: w.queue }).click();
          await page.getByTestId("proof-queue").waitFor();
          await page.getByLabel(w.order, { exact: true }).selectOption("newest");
          await page.getByLabel(w.light, { exact: true }).selectOption("all");
          for (const width of [1440, 390] as const) {
            await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
            // The queue reads the lights the checks came to.
            await item(green.reference).and(page.locator("[data-light=green]")).waitFor({ timeout: 60_000 });
            await item(red.reference).and(page.locator("[data-light=red]")).waitFor({ timeout: 60_000 });
            await item(amber.reference).and(page.locator("[data-light=amber]")).waitFor({ timeout: 60_000 });
            await page.waitForLoadState("networkidle");
            await page.getByTestId("proof-queue").scrollIntoViewIfNeeded();
            await screenshot(page, `admin-queue-${lang}-${width}`);
            const overflow = await horizontalOverflow(page);
            if (overflow > 0) problems.push(`queue ${lang} at ${width}: ${overflow}px of horizontal overflow`);
            if (width === 1440) for (const v of await seriousViolations(page)) problems.push(`queue ${lang}: ${v}`);

            // The red one's reason names the first purchase; 'Comparar' in its dialog sets both proofs side by side.
            expect(await item(red.reference).getByTestId("queue-reason").textContent()).toContain(`#${green.id}`);
            await item(red.reference).getByRole("button", { name: `${w.view} ${red.reference}` }).click();
            const detail = page.getByTestId("purchase-detail");
            await detail.getByRole("button", { name: w.compare }).first().click();
            const compare = page.getByTestId("proof-compare");
            await compare.waitFor();
            expect(await compare.getByTestId("compare-this").getAttribute("data-purchase-id")).toBe(String(red.id));
            expect(await compare.getByTestId("compare-this").textContent()).toContain(red.reference);
            expect(await compare.getByTestId("compare-this").textContent()).toContain("Rodrigo Rojo");
            await compare.getByTestId("compare-other").waitFor();
            expect(await compare.getByTestId("compare-other").textContent()).toContain(green.reference);
            expect(await compare.getByTestId("compare-other").textContent()).toContain("Gabriela Verde");
            await page.waitForFunction(() => {
              const images = [...document.querySelectorAll<HTMLImageElement>("[data-testid=proof-compare] [data-testid=proof-image] img")];
              return images.length === 2 && images.every((img) => img.complete && img.naturalWidth > 0);
            });
            const [mine, theirs] = [await compare.getByTestId("compare-this").boundingBox(), await compare.getByTestId("compare-other").boundingBox()];
            if (width === 390) {
              expect(theirs!.y).toBeGreaterThan(mine!.y + mine!.height - 1);
              expect(await compare.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
            } else {
              expect(Math.abs(theirs!.y - mine!.y)).toBeLessThan(2);
              expect(theirs!.x).toBeGreaterThan(mine!.x + mine!.width - 1);
            }
            await page.waitForTimeout(300);
            await screenshot(page, `admin-queue-compare-${lang}-${width}`, { fullPage: false });
            if (width === 1440) for (const v of await seriousViolations(page)) problems.push(`compare ${lang}: ${v}`);
            await dismissDialog(page, "proof-compare");
            await dismissDialog(page, "purchase-detail");
          }
        }
        expect(problems).toEqual([]);

        // Back in Spanish at desktop size: the filter by light.
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.getByTestId("language-toggle").click();
        await page.getByRole("tab", { name: "Cola de revisión" }).click();
        await page.getByLabel("Orden", { exact: true }).selectOption("newest");
        await page.getByLabel("Luz", { exact: true }).selectOption("green");
        await item(green.reference).waitFor();
        await item(red.reference).waitFor({ state: "detached" });
        expect(new Set(await page.getByTestId("queue-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-light"))))).toEqual(new Set(["green"]));

        // 'Aprobar verdes': the confirmation lists the green one; approved, it leaves the queue.
        await item(green.reference).getByRole("checkbox", { name: `Seleccionar la compra ${green.reference}` }).click();
        await page.getByRole("button", { name: "Aprobar verdes (1)" }).click();
        const approve = page.getByTestId("bulk-decision-dialog");
        await approve.waitFor();
        expect(await approve.getByTestId("bulk-items").locator("li").evaluateAll((li) => li.map((l) => l.getAttribute("data-reference")))).toEqual([green.reference]);
        expect(await approve.textContent()).toContain("Gabriela Verde");
        expect(await approve.textContent()).toContain("correo de confirmación");
        await approve.getByTestId("confirm-bulk").click();
        await toast(page, "1 compra aprobada").waitFor();
        await item(green.reference).waitFor({ state: "detached" });
        expect((await adminApi<{ status: string }>(`/api/admin/purchases/${green.id}`)).status).toBe("approved");

        // 'Rechazar rojas' with the note it requires.
        await page.getByLabel("Luz", { exact: true }).selectOption("red");
        await item(red.reference).waitFor();
        await item(amber.reference).waitFor({ state: "detached" });
        await item(red.reference).getByRole("checkbox", { name: `Seleccionar la compra ${red.reference}` }).click();
        await page.getByRole("button", { name: "Rechazar rojas (1)" }).click();
        const reject = page.getByTestId("bulk-decision-dialog");
        await reject.waitFor();
        expect(await reject.getByTestId("bulk-items").locator("li").evaluateAll((li) => li.map((l) => l.getAttribute("data-reference")))).toEqual([red.reference]);
        const confirm = reject.getByTestId("confirm-bulk");
        expect(await confirm.isDisabled()).toBe(true);
        await reject.getByLabel("Motivo del rechazo").fill("El comprobante ya se usó en otra compra");
        await confirm.click();
        await toast(page, "1 compra rechazada").waitFor();
        await item(red.reference).waitFor({ state: "detached" });
        const rejected = await adminApi<{ status: string; adminNotes: string | null }>(`/api/admin/purchases/${red.id}`);
        expect(rejected).toMatchObject({ status: "rejected", adminNotes: "El comprobante ya se usó en otra compra" });
        // The amber one is still waiting.
        await page.getByLabel("Luz", { exact: true }).selectOption("amber");
        await item(amber.reference).waitFor();
        expect(errors).toEqual([]);
        await context.close();
      } finally {
        await fetch(`${apiURL()}/api/admin/payment-methods/${method}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
      }
    },
  );
});

describe("the live connection", () => {
  it("reconnects 3 s after the connection drops and fetches the purchases made meanwhile", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    // The page's socket goes through Playwright to the real API (connectToServer forwards both
    // ways); closing the page's side is what the browser sees when the server or the network
    // drops it (close code 1001, "going away"), with nothing mocked.
    const opened: { route: WebSocketRoute; at: number }[] = [];
    await page.routeWebSocket(/\/ws$/, (route) => {
      route.connectToServer();
      opened.push({ route, at: Date.now() });
    });
    await signIn(page, admin());
    const state = page.getByTestId("live-state");
    await page.locator("[data-testid=live-state][data-state=live]").waitFor({ timeout: 15_000 });
    expect(opened).toHaveLength(1);

    const droppedAt = Date.now();
    await opened[0]!.route.close({ code: 1001, reason: "going away" });
    await page.locator("[data-testid=live-state][data-state=offline]").waitFor();
    // A purchase while the connection is down: its notice is lost.
    const name = `Cliente Sin Conexión ${Date.now()}`;
    const [n] = await freeNumbers(RAFFLE, 1);
    const missed = await buyAs(RAFFLE, [n as number], `offline-${Date.now()}@example.com`, name);
    expect(await row(page, missed.reference).count()).toBe(0);

    await page.waitForFunction(() => document.querySelector("[data-testid=live-state]")?.getAttribute("data-state") === "live", undefined, { timeout: 10_000 });
    expect(opened).toHaveLength(2);
    const wait = opened[1]!.at - droppedAt;
    expect(wait).toBeGreaterThanOrEqual(2900);
    expect(wait).toBeLessThan(4500);
    expect(await state.getAttribute("data-state")).toBe("live");
    // Authenticated again: the list is read again and shows the missed purchase, with no toast.
    await row(page, missed.reference).waitFor({ timeout: 5_000 });
    expect(await toast(page, name).count()).toBe(0);
    await context.close();
  });
});

describe("an admin's test purchase", () => {
  it("is not processed and says so", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.goto(`/sorteo/${RAFFLE}`);
    await page.getByText("Modo Prueba de Admin").first().waitFor();
    const [n] = await freeNumbers(RAFFLE, 1);
    const label = String(n).padStart(4, "0");
    await page.getByLabel("Buscar número").fill(label);
    await page.getByRole("button", { name: `Número ${label}`, exact: true }).click();
    await page.getByLabel("Nombre completo").fill("Prueba Admin");
    await page.getByLabel("Cédula o pasaporte").fill("V20111222");
    await page.getByLabel("Correo electrónico").fill(`admin-test-${Date.now()}@example.com`);
    await page.getByLabel("Teléfono (WhatsApp)").fill("0412 555 1234");
    await page.getByLabel("País").selectOption("venezuela");
    const method = page.getByLabel("Método de pago");
    await method.selectOption((await method.locator("option").nth(1).getAttribute("value")) ?? "");
    await page.locator("#paymentProof").setInputFiles({ name: "comprobante.jpg", mimeType: "image/jpeg", buffer: JPEG });
    await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Probar compra (no se procesa)" }).click();

    await toast(page, "Prueba completada - NO se procesó ninguna compra real").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("receipt-dialog").textContent()).toContain("Modo Prueba");
    // Nothing held: the number is still on sale.
    const tickets = (await (await fetch(`${apiURL()}/api/raffles/${RAFFLE}/tickets`)).json()) as { ticketNumber: number }[];
    expect(tickets.some((t) => t.ticketNumber === n)).toBe(true);
    await context.close();
  });
});

describe("managing the catalogue", () => {
  it("creates, edits and deletes a raffle", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Sorteos" }).click();
    await page.getByRole("button", { name: "Crear sorteo" }).click();
    const dialog = page.getByTestId("raffle-dialog");
    expect(await dialog.getByLabel("Precio por boleto (USD) *").inputValue()).toBe("13");
    expect(await dialog.getByLabel("Cantidad máxima de boletos").inputValue()).toBe("9999");
    expect(await dialog.getByTestId("save-raffle").isDisabled()).toBe(true);
    const title = `Sorteo E2E ${Date.now()}`;
    await dialog.getByLabel("Título *", { exact: true }).fill(`  ${title}  `);
    await dialog.getByLabel("Descripción *").fill("Un sorteo creado por la prueba de navegador, con una descripción larga para recortar.");
    // The day as the Spanish panel writes it (dd/mm/aaaa), whatever the browser's language.
    expect(await dialog.getByLabel("Fecha del sorteo *").getAttribute("placeholder")).toBe("dd/mm/aaaa");
    await dialog.getByLabel("Fecha del sorteo *").fill("15/06/2030");
    await dialog.getByLabel("Máximo por compra").fill("10");
    await dialog.getByTestId("save-raffle").click();
    await toast(page, "Sorteo creado").waitFor();
    const created = page.locator(`[data-testid=raffle-row][data-title="${title}"]`);
    await created.waitFor();
    expect(await created.textContent()).toContain("…");
    expect(await created.textContent()).toContain("15 de junio de 2030");

    const raffles = (await (await fetch(`${apiURL()}/api/admin/raffles`, { headers: { Authorization: `Bearer ${await apiToken(admin())}` } })).json()) as {
      id: number;
      status: string;
      title: string;
      drawDate: string;
      maxTicketsPerPurchase: number | null;
      minTicketsPerPurchase: number | null;
    }[];
    const stored = raffles.find((r) => r.title === title);
    expect(stored).toMatchObject({ status: "available", drawDate: "2030-06-15T23:59:59.999Z", maxTicketsPerPurchase: 10, minTicketsPerPurchase: null });
    // Created with its first prize, the raffle itself, drawn by the first drand round after sales close.
    const draw = (await (await fetch(`${apiURL()}/api/admin/raffles/${stored!.id}/draw`, { headers: { Authorization: `Bearer ${await apiToken(admin())}` } })).json()) as {
      prizes: { title: string; source: { kind: string; round?: number } }[];
    };
    expect(draw.prizes.map((p) => [p.title, p.source.kind])).toEqual([[title, "beacon"]]);
    expect(new Date(quicknetRoundTime(draw.prizes[0]!.source.round!)).getTime()).toBeGreaterThan(Date.parse("2030-06-15T23:59:59.999Z"));

    await created.getByRole("button", { name: `Editar sorteo ${title}` }).click();
    await dialog.getByLabel("Título *", { exact: true }).fill(`${title} editado`);
    await dialog.getByLabel("Estado").selectOption("postponed");
    await dialog.getByTestId("save-raffle").click();
    await toast(page, "Sorteo actualizado").waitFor();
    const edited = page.locator(`[data-testid=raffle-row][data-title="${title} editado"]`);
    await edited.getByText("Pospuesto").waitFor();

    await edited.getByRole("button", { name: `Eliminar sorteo ${title} editado` }).click();
    const confirm = page.getByTestId("confirm-delete");
    expect(await confirm.textContent()).toContain("¿Estás seguro de que quieres eliminar este sorteo?");
    await confirm.getByTestId("confirm-delete-button").click();
    await toast(page, "Sorteo eliminado").waitFor();
    await edited.waitFor({ state: "detached" });
    await context.close();
  });

  it("creates, edits and deletes a payment method whose fields follow the type", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Métodos de pago" }).click();
    await page.getByRole("button", { name: "Agregar método" }).click();
    const dialog = page.getByTestId("method-dialog");
    const name = `Método E2E ${Date.now()}`;
    // Digital: one free row, no remove button until a second exists.
    expect(await dialog.getByRole("button", { name: /Quitar campo/ }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Agregar campo" }).click();
    // The remove buttons follow the watched rows one render later.
    await expect.poll(() => dialog.getByRole("button", { name: /Quitar campo/ }).count()).toBe(2);
    await dialog.getByRole("button", { name: "Quitar campo 2" }).click();
    await expect.poll(() => dialog.getByTestId("detail-row").count()).toBe(1);
    // Crypto: wallet and network.
    await dialog.getByLabel("Tipo").selectOption("crypto");
    expect(await dialog.getByLabel("Red").locator("option").allTextContents()).toEqual(["bitcoin", "ethereum", "bsc", "tron", "polygon"]);
    expect(await dialog.getByTestId("save-method").isDisabled()).toBe(true);
    await dialog.getByLabel("Nombre *").fill(name);
    await dialog.getByLabel("Dirección de la billetera").fill("TXe2eWalletAddress123");
    await dialog.getByLabel("Red").selectOption("tron");
    await dialog.getByLabel("Tasa de cambio").selectOption({ index: 1 });
    await dialog.getByTestId("save-method").click();
    await toast(page, "Método de pago creado").waitFor();
    const created = page.locator(`[data-testid=method-row][data-name="${name}"]`);
    await created.waitFor();
    expect(await created.textContent()).toContain("TXe2eWalletAddress123");
    expect(await created.textContent()).toMatch(/1 : [\d.]+,\d{4}/);

    // Edit to a bank account.
    await created.getByRole("button", { name: `Editar método ${name}` }).click();
    await dialog.getByLabel("Tipo").selectOption("bank");
    await dialog.getByLabel("Banco", { exact: true }).fill("Banco E2E");
    await dialog.getByLabel("Número de cuenta").fill("0102-0000-00");
    await dialog.getByLabel("Tipo de cuenta").selectOption("ahorro");
    await dialog.getByTestId("save-method").click();
    await toast(page, "Método de pago actualizado").waitFor();
    await created.getByText(/Banco E2E/).waitFor();
    const methods = (await (await fetch(`${apiURL()}/api/payment-methods`)).json()) as { name: string; type: string; details: Record<string, string>; active: boolean }[];
    expect(methods.find((m) => m.name === name)).toMatchObject({ type: "bank", active: true, details: { bankName: "Banco E2E", accountNumber: "0102-0000-00", accountType: "ahorro" } });

    await created.getByRole("button", { name: `Eliminar método ${name}` }).click();
    await page.getByTestId("confirm-delete-button").click();
    await toast(page, "Método de pago eliminado").waitFor();
    await created.waitFor({ state: "detached" });

    // Detail keys read in Spanish, never in English.
    const table = (await page.getByTestId("methods-tab").locator("table").textContent()) ?? "";
    expect(table).toContain("Banco: Banesco");
    expect(table).toContain("Número de cuenta: 0134-0000-00-0000000000");
    expect(table).toContain("Tipo de cuenta: Corriente");
    expect(table).toContain("Dirección de la billetera: TXk9demo");
    for (const english of ["Bank name", "Account number", "Wallet address"]) expect(table).not.toContain(english);
    await context.close();
  });

  it("keeps a bank method's other detail keys when it is edited", async () => {
    const name = `Banco con titular ${Date.now()}`;
    const token = await apiToken(admin());
    const created = await fetch(`${apiURL()}/api/admin/payment-methods`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name, type: "bank", active: true, details: { bankName: "Banco X", accountNumber: "0001", accountType: "ahorro", titular: "Rifa C.A.", rif: "J-123" } }),
    });
    expect(created.status).toBe(201);
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Métodos de pago" }).click();
    const rowOf = page.locator(`[data-testid=method-row][data-name="${name}"]`);
    await rowOf.getByRole("button", { name: `Editar método ${name}` }).click();
    const dialog = page.getByTestId("method-dialog");
    expect(await dialog.getByTestId("kept-details").textContent()).toBe("También se conservan: Titular: Rifa C.A. · Rif: J-123");
    await dialog.getByLabel("Número de cuenta").fill("0002");
    await dialog.getByTestId("save-method").click();
    await toast(page, "Método de pago actualizado").waitFor();
    const methods = await adminApi<{ id: number; name: string; details: Record<string, string> }[]>("/api/admin/payment-methods");
    const saved = methods.find((m) => m.name === name);
    expect(saved?.details).toEqual({ bankName: "Banco X", accountNumber: "0002", accountType: "ahorro", titular: "Rifa C.A.", rif: "J-123" });
    await fetch(`${apiURL()}/api/admin/payment-methods/${saved?.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
    await context.close();
  });

  it("shows an error with a retry, not the empty message, when a list cannot be read", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    // The request fails in the network (the browser never reaches the API), as on a dropped
    // connection; nothing answers in the API's place.
    await page.route("**/api/admin/payment-methods", (route) => route.abort("connectionrefused"));
    await page.getByRole("tab", { name: "Métodos de pago" }).click();
    const failed = page.getByTestId("methods-tab-error");
    await failed.waitFor();
    expect(await failed.textContent()).toContain("No se pudo cargar la lista.");
    expect(await page.getByTestId("methods-tab-empty").count()).toBe(0);
    await page.unroute("**/api/admin/payment-methods");
    await failed.getByRole("button", { name: "Reintentar" }).click();
    await page.getByTestId("method-row").first().waitFor();
    expect(await failed.count()).toBe(0);
    await context.close();
  });

  it("gives raffles, payment methods and rates a phone layout whose actions are in view at 390 px", async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await signIn(page, admin());
    const tabs: [string, string, RegExp, RegExp][] = [
      ["Sorteos", "raffle-card", /^Editar sorteo/, /^Eliminar sorteo/],
      ["Métodos de pago", "method-card", /^Editar método/, /^Eliminar método/],
      ["Tasas de cambio", "rate-card", /^Editar tasa/, /^Eliminar tasa/],
    ];
    for (const [tab, cardId, edit, remove] of tabs) {
      await page.getByRole("tab", { name: tab }).click();
      const cards = page.getByTestId(cardId);
      await cards.first().waitFor();
      expect(await page.locator("table:visible").count()).toBe(0);
      for (const name of [edit, remove]) {
        const buttons = cards.getByRole("button", { name });
        expect(await buttons.count()).toBe(await cards.count());
        const box = await buttons.first().boundingBox();
        expect(box, `${tab} ${name}`).not.toBeNull();
        expect(box!.x, `${tab} ${name}`).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, `${tab} ${name}`).toBeLessThanOrEqual(390);
        expect(await buttons.first().textContent()).toMatch(/Editar|Eliminar/);
      }
    }
    await context.close();
  });

  it("creates, edits and deletes an exchange rate", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Tasas de cambio" }).click();
    await page.getByTestId("rate-row").first().waitFor();
    const before = await page.getByTestId("rate-row").count();
    await page.getByRole("button", { name: "Agregar tasa" }).click();
    const dialog = page.getByTestId("rate-dialog");
    expect(await dialog.getByLabel("Moneda de origen").inputValue()).toBe("USD");
    expect(await dialog.getByLabel("Moneda de destino").inputValue()).toBe("VES");
    expect(await dialog.getByLabel("Moneda de origen").locator("option").allTextContents()).toEqual(["USD", "EUR", "VES", "COP"]);
    expect(await dialog.getByTestId("save-rate").isDisabled()).toBe(true);
    await dialog.getByLabel("Moneda de origen").selectOption("EUR");
    await dialog.getByLabel("Moneda de destino").selectOption("COP");
    await dialog.getByLabel("Tasa *").fill("4321.5");
    await dialog.getByTestId("save-rate").click();
    await toast(page, "Tasa de cambio creada exitosamente").waitFor();
    const created = page.getByTestId("rate-row").filter({ hasText: "4.321,5000" });
    await created.waitFor();
    expect(await page.getByTestId("rate-row").count()).toBe(before + 1);

    await created.getByRole("button", { name: "Editar tasa EUR → COP" }).click();
    await dialog.getByLabel("Tasa *").fill("4400");
    await dialog.getByTestId("save-rate").click();
    await toast(page, "Tasa de cambio actualizada exitosamente").waitFor();
    const edited = page.getByTestId("rate-row").filter({ hasText: "4.400,0000" });
    await edited.waitFor();

    await edited.getByRole("button", { name: "Eliminar tasa EUR → COP" }).click();
    const facts = await page.getByTestId("rate-facts").textContent();
    for (const part of ["EUR", "COP", "4.400,0000", "Última actualización"]) expect(facts).toContain(part);
    await page.getByTestId("confirm-delete-button").click();
    await toast(page, "Tasa de cambio eliminada exitosamente").waitFor();
    await edited.waitFor({ state: "detached" });
    await context.close();
  });
});

describe("branding", () => {
  it("a saved colour recolours the public site", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Branding" }).click();
    const primary = page.getByLabel("Color primario", { exact: true });
    await primary.waitFor();
    const original = await primary.inputValue();
    await primary.fill("nonsense");
    expect(await page.getByTestId("save-branding").isDisabled()).toBe(true);
    await primary.fill("hsl(200, 80%, 40%)");
    expect(await page.getByTestId("swatch-primaryColor").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(20, 129, 184)");
    await page.getByRole("button", { name: "Restablecer" }).click();
    expect(await primary.inputValue()).toBe(original);
    await primary.fill("200 80% 40%");
    await page.getByTestId("save-branding").click();
    await toast(page, "Branding actualizado exitosamente").waitFor();

    const visitor = await newPage(browser);
    await visitor.page.goto("/");
    const color = await visitor.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary").trim());
    expect(color).toBe("200 80% 40%");
    await screenshot(visitor.page, "branding-public-390");
    await visitor.context.close();

    // Put the spec's default back for the other tests' screenshots.
    await primary.fill(original);
    await page.getByTestId("save-branding").click();
    await toast(page, "Branding actualizado exitosamente").waitFor();
    await context.close();
  });
});

describe("e-mail settings", () => {
  it("saves the settings with a write-only password and reports the test's outcome", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Correo" }).click();
    await page.getByLabel("Servidor SMTP").waitFor();
    // Nothing set up: the test e-mail goes to the local outbox.
    await page.getByLabel("Enviar prueba a").fill("admin@example.com");
    await page.getByTestId("test-email").click();
    await page.getByTestId("test-result").waitFor();
    expect(await page.getByTestId("test-result").textContent()).toContain("bandeja de salida");

    await page.getByLabel("Servidor SMTP").fill("127.0.0.1");
    await page.getByLabel("Puerto").fill("1");
    await page.getByLabel("Usuario").fill("rifa");
    await page.getByLabel("Contraseña de aplicación").fill("secreto-123");
    await page.getByLabel("Correo remitente").fill("rifas@example.com");
    await page.getByTestId("save-email").click();
    await toast(page, "Configuración de correo guardada").waitFor();
    await page.getByText("Hay una contraseña guardada").waitFor();
    await screenshot(page, "admin-correo-password-1280");
    expect(await page.getByLabel("Contraseña de aplicación").inputValue()).toBe("");
    expect(await page.getByTestId("env-vars").textContent()).toContain("RIFA_SMTP_HOST=127.0.0.1");
    expect(await page.getByTestId("env-vars").textContent()).toContain("RIFA_SMTP_SECURITY=starttls");
    expect(await page.getByTestId("env-vars").textContent()).not.toContain("secreto-123");
    // The test button says it uses the saved settings, and warns while the form differs.
    expect(await page.getByText("La prueba usa la configuración guardada, no la del formulario.").count()).toBe(1);
    expect(await page.getByTestId("test-unsaved").count()).toBe(0);
    await page.getByLabel("Puerto").fill("2");
    await page.getByTestId("test-unsaved").waitFor();
    await page.getByLabel("Puerto").fill("1");
    await page.getByTestId("test-unsaved").waitFor({ state: "detached" });

    // A server that does not answer: the SMTP error is shown.
    await page.getByTestId("test-email").click();
    await page.getByTestId("test-result").filter({ hasNotText: "bandeja" }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("test-result").getAttribute("class")).toContain("danger");

    // The stored password can be deleted on its own, and undone before saving.
    await page.getByTestId("toggle-clear-password").click();
    expect(await page.getByTestId("pass-hint").textContent()).toBe("La contraseña guardada se eliminará al guardar.");
    await page.getByRole("button", { name: "Conservarla" }).click();
    expect(await page.getByTestId("pass-hint").textContent()).toBe("Hay una contraseña guardada; déjalo vacío para conservarla.");

    // Clear, save: everything goes, the stored password too, and mail goes back to the outbox.
    await page.getByRole("button", { name: "Limpiar" }).click();
    expect(await page.getByLabel("Servidor SMTP").inputValue()).toBe("");
    expect(await page.getByTestId("pass-hint").textContent()).toBe("La contraseña guardada se eliminará al guardar.");
    expect(await page.getByTestId("env-vars").textContent()).toContain("RIFA_SMTP_PASSWORD=\n");
    await page.getByTestId("save-email").click();
    await toast(page, "Configuración de correo guardada").waitFor();
    await page.getByText("No hay contraseña guardada.").waitFor();
    expect(await adminApi<{ hasPassword: boolean; emailHost: string }>("/api/admin/email-settings")).toMatchObject({ hasPassword: false, emailHost: "" });
    await page.getByTestId("test-email").click();
    await page.getByTestId("test-result").filter({ hasText: "bandeja de salida" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("failed-deliveries").waitFor();
    await page.getByTestId("withheld-mails").getByText("Correos retenidos", { exact: true }).waitFor();
    await context.close();
  });
});

describe("a non-privileged admin", () => {
  // global-setup's `create-admin` without a role makes a manager: purchases, figures, catalogue and draws.
  it("sees 5 tabs, rates without deletion (the owners'), its role, and the API refuses the owners' calls naming it", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, operator());
    expect(await page.getByTestId("admin-tabs").getByRole("tab").allTextContents()).toEqual(["Verificar compras", "Compras del día", "Sorteos", "Métodos de pago", "Tasas de cambio"]);
    expect(await page.getByTestId("admin-role").textContent()).toBe("Encargado");
    await page.getByTestId("card-tickets").waitFor();
    await page.getByRole("tab", { name: "Tasas de cambio" }).click();
    await page.getByTestId("rate-row").first().waitFor();
    expect(await page.getByRole("button", { name: /Editar tasa/ }).count()).toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: /Eliminar tasa/ }).count()).toBe(0);
    await context.close();

    const token = await apiToken(operator());
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/admin/branding", { primaryColor: "1 1% 1%" }],
      ["GET", "/api/admin/email-settings"],
      ["PUT", "/api/admin/email-settings", { emailHost: "x" }],
      ["POST", "/api/admin/email-settings/test", {}],
      ["DELETE", "/api/admin/exchange-rates/1"],
    ];
    for (const [method, path, body] of calls) {
      const response = await fetch(`${apiURL()}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(`${method} ${path} → ${response.status}`).toBe(`${method} ${path} → 403`);
      const refusal = (await response.json()) as { code: string; message: string };
      expect(refusal.code).toBe("forbidden");
      expect(refusal.message).toMatch(/^Tu rol \(encargado\) no permite .+\. Pídeselo a un dueño de la cuenta\.$/);
    }
  });
});

describe("admin viewing public pages", () => {
  it("lists the raffles hidden from the public for admins only, with the dashboard link in the header", async () => {
    const visitor = await newPage(browser, 1280, 900);
    await visitor.page.goto("/sorteos", { waitUntil: "networkidle" });
    expect(await visitor.page.getByTestId("admin-hidden-raffles").count()).toBe(0);
    await visitor.context.close();

    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.goto("/sorteos");
    const hidden = page.getByTestId("admin-hidden-raffles");
    await hidden.waitFor();
    const text = await hidden.textContent();
    expect(text).toContain("borrador");
    expect(text).toContain("Finalizado");
    await page.getByRole("link", { name: "Panel de administración" }).first().waitFor();
    await screenshot(page, "admin-sorteos-public-1280");
    await context.close();
  });
});

describe("admin screens", () => {
  const TABS = ["Verificar compras", "Compras del día", "Sorteos", "Métodos de pago", "Tasas de cambio", "Branding", "Correo", "Equipo", "Registro"];
  const slug = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\W+/g, "-");

  it("saves every tab at desktop and phone sizes, without overflow or serious axe violations", async () => {
    const problems: string[] = [];
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      const { context, page } = await newPage(browser, width, height);
      await signIn(page, admin());
      for (const tab of TABS) {
        await page.getByRole("tab", { name: tab }).click();
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(300);
        await screenshot(page, `admin-${slug(tab)}-${width}`);
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) problems.push(`${tab} at ${width}: ${overflow}px of horizontal overflow`);
        if (width === 1280) for (const v of await seriousViolations(page)) problems.push(`${tab}: ${v}`);
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it("shows the purchases screen at phone and desktop sizes in both languages, without overflow", async () => {
    const problems: string[] = [];
    for (const [width, height] of [[390, 844], [1440, 900]] as const) {
      const { context, page } = await newPage(browser, width, height);
      await signIn(page, admin());
      for (const lang of ["es", "en"] as const) {
        if (lang === "en") await page.getByTestId("language-toggle").click();
        await page.getByTestId("all-showing").filter({ hasText: lang === "es" ? /^Mostrando/ : /^Showing/ }).waitFor();
        await page.waitForLoadState("networkidle");
        await screenshot(page, `admin-purchases-${lang}-${width}`);
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) problems.push(`${lang} at ${width}: ${overflow}px of horizontal overflow`);
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it("switches the whole panel to English", async () => {
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, admin());
    await page.getByTestId("language-toggle").click();
    await page.getByRole("tab", { name: "Verify purchases" }).waitFor();
    expect(await page.getByTestId("admin-tabs").getByRole("tab").allTextContents()).toEqual(["Verify purchases", "Today's purchases", "Raffles", "Payment methods", "Exchange rates", "Branding", "E-mail", "Team", "Audit trail"]);
    await page.getByRole("heading", { name: "Purchase verification" }).waitFor();
    // The cards, the search's figures, filters, the date control, counts and the chart.
    for (const [id, label] of [
      ["card-tickets", "Tickets sold (approved)"],
      ["card-revenue", "Total revenue"],
      ["card-pending", "Pending purchases"],
      ["card-active", "Active raffles"],
      ["all-tickets", "Sold (approved) in this search"],
      ["all-revenue", "Revenue from this search"],
      ["all-pending", "Pending in this search"],
    ] as const) {
      expect(await page.getByTestId(id).locator("span").first().textContent(), id).toBe(label);
    }
    for (const label of ["Raffle", "Customer name", "Status", "Ticket numbers", "Date"]) await page.getByLabel(label, { exact: true }).waitFor();
    expect(await page.getByLabel("Date", { exact: true }).getAttribute("placeholder")).toBe("mm/dd/yyyy");
    await page.getByTestId("all-showing").filter({ hasText: /^Showing 1-\d+ of \d+ purchases$/ }).waitFor();
    expect(await page.getByTestId("all-page-of").textContent()).toMatch(/^Page 1 of \d+$/);
    await page.getByRole("heading", { name: "Sales of the last 14 days" }).waitFor();
    await page.getByRole("button", { name: "Pick from the calendar" }).click();
    expect(await page.getByTestId("date-calendar").locator("th").first().textContent()).toMatch(/^Sun/);
    expect((await page.getByTestId("calendar-month").textContent())?.toLowerCase()).toMatch(/^(january|february|march|april|may|june|july|august|september|october|november|december) \d{4}$/);
    await page.keyboard.press("Escape");
    const { day } = await browserDay(page);
    await page.getByLabel("Date", { exact: true }).fill(`${day.slice(5, 7)}/${day.slice(8)}/${day.slice(0, 4)}`);
    await page.getByTestId("all-showing").filter({ hasText: /^Showing \d+-\d+ of \d+ purchases$/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    await screenshot(page, "admin-english-1280");

    await page.getByRole("tab", { name: "Today's purchases" }).click();
    await page.getByRole("heading", { name: "Today's purchases" }).waitFor();
    expect(await page.getByTestId("today-tickets").locator("span").first().textContent()).toBe("Sold (approved) today");
    await page.getByRole("tab", { name: "Raffles" }).click();
    await page.getByRole("button", { name: "Create raffle" }).waitFor();
    expect(await page.getByTestId("raffles-tab").locator("th").allTextContents()).toContain("Draw date");
    await page.getByRole("tab", { name: "Payment methods" }).click();
    await page.getByRole("button", { name: "Add method" }).waitFor();
    const methods = (await page.getByTestId("methods-tab").locator("table").textContent()) ?? "";
    expect(methods).toContain("Bank: Banesco");
    expect(methods).toContain("Account type: Checking");
    await page.getByRole("tab", { name: "Exchange rates" }).click();
    await page.getByRole("button", { name: "Add rate" }).waitFor();
    await page.getByRole("tab", { name: "E-mail" }).click();
    await page.getByText("The test uses the saved settings, not the form's.").waitFor();
    await screenshot(page, "admin-english-email-1280");

    await page.getByTestId("language-toggle").click();
    await page.getByRole("tab", { name: "Verificar compras" }).waitFor();
    await context.close();
  });
});

/** An account created through the API by the privileged admin, and the password it was handed. */
async function newStaff(username: string, role: string): Promise<{ username: string; password: string }> {
  const response = await fetch(`${apiURL()}/api/admin/staff`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await apiToken(admin())}`, "Content-Type": "application/json" },
    body: JSON.stringify({ username, role }),
  });
  if (response.status !== 201) throw new Error(`staff: ${response.status} ${await response.text()}`);
  return { username, password: ((await response.json()) as { temporaryPassword: string }).temporaryPassword };
}

/** Replaces a handed-over password through the API, as the first sign-in's screen does. */
async function choosePassword(who: { username: string; password: string }, newPassword: string): Promise<{ username: string; password: string }> {
  const response = await fetch(`${apiURL()}/api/admin/password`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await apiToken(who)}`, "Content-Type": "application/json" },
    body: JSON.stringify({ currentPassword: who.password, newPassword }),
  });
  if (!response.ok) throw new Error(`password: ${response.status} ${await response.text()}`);
  return { username: who.username, password: newPassword };
}

const me = (token: string) => fetch(`${apiURL()}/api/admin/me`, { headers: { Authorization: `Bearer ${token}` } });

describe("staff and roles", () => {
  it("an owner creates a reviewer, who chooses a password, sees only purchases, and is cut off once disabled", { timeout: 400_000 }, async () => {
    const stamp = Date.now();
    const reviewer = `revisor-${stamp}`;
    const strong = `Tz8#qL2m!vR9xW4k-${stamp}`;
    // Another account keeps its handed-over password, so the list shows that state too.
    await newStaff(`catalogo-${stamp}`, "catalogue");
    const problems: string[] = [];
    const check = async (page: Page, what: string) => {
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) problems.push(`${what}: ${overflow}px of horizontal overflow`);
      for (const v of await seriousViolations(page)) problems.push(`${what}: ${v}`);
    };

    const owner = await newPage(browser, 1440, 900);
    await signIn(owner.page, admin());
    expect(await owner.page.getByTestId("admin-role").textContent()).toBe("Dueño");
    await owner.page.getByRole("tab", { name: "Equipo" }).click();
    const rowOf = (username: string) => owner.page.locator(`[data-testid=staff-row][data-username="${username}"]`);
    // One's own account: marked, and nothing to do to it here.
    await rowOf(admin().username).waitFor();
    expect(await rowOf(admin().username).getByTestId("staff-you").textContent()).toBe("Tú");
    expect(await rowOf(admin().username).getByRole("button").count()).toBe(0);
    expect(await rowOf(operator().username).getByRole("button").count()).toBe(3);

    await owner.page.getByRole("button", { name: "Nueva cuenta" }).click();
    const create = owner.page.getByTestId("new-account-dialog");
    await create.getByLabel("Nombre de usuario").fill(reviewer);
    await create.getByLabel("Rol").selectOption("reviewer");
    await create.getByText("Solo revisar y decidir compras.").waitFor();
    await create.getByRole("button", { name: "Crear cuenta" }).click();
    const handed = owner.page.getByTestId("handed-over-dialog");
    await handed.waitFor();
    expect(await handed.getByTestId("handed-over-username").textContent()).toBe(reviewer);
    expect(await handed.textContent()).toContain("Solo se muestra esta vez, y deberá reemplazarla por una propia al iniciar sesión por primera vez.");
    const temporary = ((await handed.getByTestId("temporary-password").textContent()) ?? "").trim();
    // At least as long as a password the server would accept from a person.
    expect(temporary).toMatch(/^\S{12,}$/);
    await handed.getByRole("button", { name: "Listo" }).click();
    await handed.waitFor({ state: "detached" });
    await rowOf(reviewer).filter({ hasText: "Contraseña temporal" }).waitFor();
    expect(await rowOf(reviewer).textContent()).toContain("Revisor");

    // The reviewer, on a phone: nothing but the choice of a password, then only the purchases.
    const them = await newPage(browser, 390, 844);
    const refused: string[] = [];
    them.page.on("response", (response) => {
      if (response.status() === 403) refused.push(response.url());
    });
    await signInTo(them.page, { username: reviewer, password: temporary });
    const forced = them.page.getByTestId("forced-password-change");
    await forced.getByRole("heading", { name: "Elige tu contraseña" }).waitFor();
    expect(await forced.textContent()).toContain("Entraste con una contraseña que te dio un dueño de la cuenta.");
    expect(await them.page.getByTestId("admin-tabs").count()).toBe(0);
    await them.page.waitForLoadState("networkidle");
    await screenshot(them.page, "admin-password-change-390x844-es");
    await check(them.page, "forced change at 390");
    await forced.getByLabel("Contraseña que te dieron", { exact: true }).fill(temporary);
    await forced.getByLabel("Nueva contraseña", { exact: true }).fill(strong);
    await forced.getByLabel("Repite la nueva contraseña", { exact: true }).fill(`${strong}x`);
    await forced.getByRole("button", { name: "Guardar y continuar" }).click();
    await forced.getByText("Las contraseñas no coinciden").waitFor();
    await forced.getByLabel("Repite la nueva contraseña", { exact: true }).fill(strong);
    await forced.getByRole("button", { name: "Guardar y continuar" }).click();
    await them.page.getByTestId("admin-tabs").waitFor();
    await toast(them.page, "Contraseña cambiada").waitFor();
    // Gone before the screenshot, which it would cover.
    await toast(them.page, "Contraseña cambiada").waitFor({ state: "detached", timeout: 15_000 });
    expect(await them.page.getByTestId("admin-tabs").getByRole("tab").allTextContents()).toEqual(["Verificar compras", "Compras del día"]);
    await them.page.getByTestId("purchases-panel").waitFor();
    await them.page.locator("[data-testid=live-state][data-state=live]").waitFor({ timeout: 15_000 });
    await them.page.waitForLoadState("networkidle");
    // No sales figures: neither the four cards nor the chart, and nothing was asked only to be refused.
    expect(await them.page.getByTestId("card-tickets").count()).toBe(0);
    expect(await them.page.getByRole("heading", { name: /^Ventas de los últimos/ }).count()).toBe(0);
    await screenshot(them.page, "admin-reviewer-390x844-es");
    await check(them.page, "reviewer at 390");
    await them.page.getByRole("tab", { name: "Compras del día" }).click();
    await them.page.getByTestId("daily-panel").waitFor();
    await them.page.waitForLoadState("networkidle");
    expect(await them.page.getByTestId("today-tickets").count()).toBe(0);
    expect(refused).toEqual([]);

    // Its token may not do a manager's work.
    const token = (await them.page.evaluate(() => localStorage.getItem("auth_token"))) as string;
    for (const [method, path, body] of [
      ["GET", "/api/admin/raffles/1/draw"],
      ["POST", "/api/admin/raffles", { title: `Prohibido ${stamp}`, description: "No debe existir", price: 2, maxTickets: 100, drawDate: "2030-01-15" }],
    ] as const) {
      const response = await fetch(`${apiURL()}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(`${method} ${path} → ${response.status}`).toBe(`${method} ${path} → 403`);
      const refusal = (await response.json()) as { code: string; message: string };
      expect(refusal.code).toBe("forbidden");
      expect(refusal.message).toContain("Tu rol (revisor) no permite");
    }

    // The reviewer's panel in English on a desktop.
    await them.page.setViewportSize({ width: 1440, height: 900 });
    await them.page.getByRole("tab", { name: "Verificar compras" }).click();
    await them.page.getByTestId("language-toggle").click();
    await them.page.getByRole("tab", { name: "Verify purchases" }).waitFor();
    expect(await them.page.getByTestId("admin-tabs").getByRole("tab").allTextContents()).toEqual(["Verify purchases", "Today's purchases"]);
    expect(await them.page.getByTestId("admin-role").textContent()).toBe("Reviewer");
    await them.page.waitForLoadState("networkidle");
    await screenshot(them.page, "admin-reviewer-1440x900-en");
    await check(them.page, "reviewer at 1440 in English");

    // The owner disables it: its page lands on the login page within seconds, and it cannot sign in again.
    await rowOf(reviewer).getByRole("button", { name: `Desactivar la cuenta de ${reviewer}` }).click();
    const confirm = owner.page.getByTestId("staff-access-dialog");
    expect(await confirm.textContent()).toContain("todas sus sesiones se cerrarán al instante en todos sus dispositivos");
    await confirm.getByRole("button", { name: "Desactivar cuenta" }).click();
    const disabledAt = Date.now();
    await them.page.waitForURL("**/admin/login", { timeout: 10_000 });
    expect(Date.now() - disabledAt).toBeLessThan(10_000);
    expect(await them.page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    const ended = await me(token);
    expect(ended.status).toBe(401);
    expect(((await ended.json()) as { code: string }).code).toBe("session_ended");
    const again = await fetch(`${apiURL()}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: reviewer, password: strong }),
    });
    expect(again.status).toBe(401);
    await them.context.close();

    // The team with every state: the owner's own account, active ones, one waiting for its
    // password, and the reviewer disabled; on a desktop and a phone, in both languages.
    await rowOf(reviewer).filter({ hasText: "Desactivada" }).waitFor();
    await toast(owner.page, "Cuenta desactivada").waitFor({ state: "detached", timeout: 15_000 });
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      const page = width === 1440 ? owner.page : (await newPage(browser, width, height)).page;
      if (width !== 1440) {
        await signIn(page, admin());
        await page.getByRole("tab", { name: "Equipo" }).click();
        await page.locator(`[data-testid=staff-card][data-name="${reviewer}"]`).filter({ hasText: "Desactivada" }).waitFor();
      }
      await page.waitForLoadState("networkidle");
      await screenshot(page, `admin-staff-${width}x${height}-es`);
      await check(page, `team at ${width}`);
      await page.getByTestId("language-toggle").click();
      await page.getByRole("tab", { name: "Team" }).waitFor();
      await page.getByRole("button", { name: "New account" }).waitFor();
      await page.waitForLoadState("networkidle");
      await screenshot(page, `admin-staff-${width}x${height}-en`);
      await check(page, `team at ${width} in English`);
      await page.context().close();
    }
    expect(problems).toEqual([]);
  });

  it("changes one's own password from the header: a wrong current one is said under its field, the right one keeps this page signed in and ends the others", { timeout: 300_000 }, async () => {
    const stamp = Date.now();
    const manager = await choosePassword(await newStaff(`encargado-${stamp}`, "manager"), `Pq4!zW8#mN2x-${stamp}`);
    const elsewhere = await apiToken(manager);
    const { context, page } = await newPage(browser, 1280, 900);
    await signIn(page, manager);
    expect(await page.getByTestId("admin-role").textContent()).toBe("Encargado");
    await page.locator("[data-testid=live-state][data-state=live]").waitFor({ timeout: 15_000 });
    const before = (await page.evaluate(() => localStorage.getItem("auth_token"))) as string;

    await page.getByRole("button", { name: "Cambiar contraseña" }).click();
    const dialog = page.getByTestId("change-password-dialog");
    const next = `Hv7$kR3@pL9w-${stamp}`;
    await dialog.getByLabel("Contraseña actual", { exact: true }).fill("no-es-la-actual-123");
    await dialog.getByLabel("Nueva contraseña", { exact: true }).fill(next);
    await dialog.getByLabel("Repite la nueva contraseña", { exact: true }).fill(next);
    await dialog.getByRole("button", { name: "Cambiar contraseña" }).click();
    await dialog.getByText("La contraseña actual no es correcta").waitFor();
    expect(await dialog.getByLabel("Contraseña actual", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect((await me(elsewhere)).status).toBe(200);

    await dialog.getByLabel("Contraseña actual", { exact: true }).fill(manager.password);
    await dialog.getByRole("button", { name: "Cambiar contraseña" }).click();
    await toast(page, "Contraseña cambiada").waitFor();
    expect(await toast(page, "Contraseña cambiada").textContent()).toContain("Se cerró la sesión en tus otros dispositivos.");
    await dialog.waitFor({ state: "detached" });
    // This page: a new token that works, its live connection back, still on the panel.
    const after = (await page.evaluate(() => localStorage.getItem("auth_token"))) as string;
    expect(after).not.toBe(before);
    expect((await me(after)).status).toBe(200);
    await page.locator("[data-testid=live-state][data-state=live]").waitFor({ timeout: 15_000 });
    await page.getByRole("tab", { name: "Tasas de cambio" }).click();
    await page.getByTestId("rate-row").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    // Every other session of the account ended.
    for (const token of [before, elsewhere]) {
      const refusedToken = await me(token);
      expect(refusedToken.status).toBe(401);
      expect(((await refusedToken.json()) as { code: string }).code).toBe("session_ended");
    }
    expect((await fetch(`${apiURL()}/api/admin/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username: manager.username, password: next }) })).status).toBe(200);
    await context.close();
  });
});

// Last in the file: signing out everywhere ends every session of the privileged admin, and the
// tests above each sign in afresh (none keeps a token from one test to the next).
describe("the audit trail and sessions", () => {
  const HEX = /^[0-9a-f]{64}$/;

  it("shows a decision in the trail, the chain intact, filtered by action, at desktop and phone sizes in both languages", { timeout: 400_000 }, async () => {
    // A decision by the privileged admin through the API (a rejection frees the number again).
    const [n] = await freeNumbers(RAFFLE, 1);
    const stamp = Date.now();
    const bought = await buyAs(RAFFLE, [n as number], `registro-${stamp}@example.com`, `Cliente Registro ${stamp}`);
    const decided = await fetch(`${apiURL()}/api/admin/purchases/${bought.id}/status`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${await apiToken(admin())}`, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "rejected", adminNotes: `Registro de prueba ${stamp}` }),
    });
    expect(decided.status).toBe(200);

    const problems: string[] = [];
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      const { context, page } = await newPage(browser, width, height);
      await signIn(page, admin());
      await page.getByRole("tab", { name: "Registro" }).click();
      const banner = page.locator("[data-testid=audit-verification][data-state=intact]");
      await banner.waitFor();
      const title = (await page.getByTestId("audit-verification-title").textContent()) ?? "";
      expect(title).toMatch(/^Registro íntegro · [\d.]+ entradas · huella [0-9a-f]{12}…$/);
      const head = (await banner.locator("code").getAttribute("title")) ?? "";
      expect(head).toMatch(HEX);
      expect(title).toContain(head.slice(0, 12));

      // The decision's entry: who, the purchase it names, and what changed.
      const kind = width < 768 ? "audit-item" : "audit-row";
      const entry = page.locator(`[data-testid=${kind}][data-action="purchase.decided"][data-target="purchase:${bought.id}"]`);
      await entry.waitFor();
      // Named by its reference, as the buyer and the reviewer know it (issue 31).
      expect(await entry.getByRole("button", { name: `Abrir la compra ${bought.reference}` }).textContent()).toBe(`Compra ${bought.reference}`);
      const text = (await entry.textContent()) ?? "";
      expect(text).toContain(admin().username);
      expect(text).toContain("Compra decidida");
      expect(text).toContain("estado: pendiente → rechazada");
      expect(text).toContain(`nota: Registro de prueba ${stamp}`);

      // Only decisions once the action filter says so; the sign-in just made is among the others.
      await page.locator(`[data-testid=${kind}][data-action="auth.sign_in"]`).first().waitFor();
      await page.getByLabel("Acción").selectOption("purchase.decided");
      await page.waitForFunction(
        (k) => {
          const shown = [...document.querySelectorAll(`[data-testid=${k}]`)].map((e) => e.getAttribute("data-action"));
          return shown.length > 0 && shown.every((a) => a === "purchase.decided");
        },
        kind,
      );
      await entry.waitFor();

      // The target opens the purchase's dialog.
      if (width === 1440) {
        await entry.getByRole("button", { name: `Abrir la compra ${bought.reference}` }).click();
        await page.locator(`[data-testid=purchase-detail][data-purchase-id="${bought.id}"]`).waitFor();
        await dismissDialog(page, "purchase-detail");
      }

      await page.waitForLoadState("networkidle");
      await screenshot(page, `admin-audit-${width}x${height}-es`);
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) problems.push(`es at ${width}: ${overflow}px of horizontal overflow`);
      for (const v of await seriousViolations(page)) problems.push(`es at ${width}: ${v}`);

      await page.getByTestId("language-toggle").click();
      await page.getByRole("tab", { name: "Audit trail" }).waitFor();
      await page.getByTestId("audit-verification-title").filter({ hasText: /^Trail intact · [\d,]+ entries · fingerprint [0-9a-f]{12}…$/ }).waitFor();
      expect(await page.getByLabel("Action", { exact: true }).inputValue()).toBe("purchase.decided");
      const english = (await entry.textContent()) ?? "";
      expect(english).toContain("Purchase decided");
      expect(english).toContain("status: pending → rejected");
      expect(await entry.getByRole("button", { name: `Open purchase ${bought.reference}` }).textContent()).toBe(`Purchase ${bought.reference}`);
      await page.waitForLoadState("networkidle");
      await screenshot(page, `admin-audit-${width}x${height}-en`);
      const overflowEn = await horizontalOverflow(page);
      if (overflowEn > 0) problems.push(`en at ${width}: ${overflowEn}px of horizontal overflow`);
      for (const v of await seriousViolations(page)) problems.push(`en at ${width}: ${v}`);
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it("counts a reviewer's decisions and median wait per person, and exports every entry found as the server writes it", { timeout: 400_000 }, async () => {
    // A reviewer of its own, who approves two purchases a couple of seconds after their proofs came.
    const stamp = Date.now();
    const reviewer = await choosePassword(await newStaff(`cifras-${stamp}`, "reviewer"), `Rv3#kP8m!qZ2-${stamp}`);
    const token = await apiToken(reviewer);
    const approved: number[] = [];
    for (const [i, n] of (await freeNumbers(RAFFLE, 2)).entries()) {
      const bought = await buyAs(RAFFLE, [n], `cifras-${stamp}-${i}@example.com`, `Cliente Cifras ${stamp} ${i}`);
      await attachProof(bought, JPEG, "pago.jpg", "image/jpeg");
      await new Promise((r) => setTimeout(r, 2_000));
      const decided = await fetch(`${apiURL()}/api/admin/purchases/${bought.id}/status`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "approved" }),
      });
      expect(decided.status).toBe(200);
      approved.push(bought.id);
    }

    const problems: string[] = [];
    const check = async (page: Page, what: string) => {
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) problems.push(`${what}: ${overflow}px of horizontal overflow`);
      for (const v of await seriousViolations(page)) problems.push(`${what}: ${v}`);
    };
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      const { context, page } = await newPage(browser, width, height);
      await signIn(page, admin());
      await page.getByRole("tab", { name: "Registro" }).click();
      await page.locator("[data-testid=audit-verification][data-state=intact]").waitFor();
      await page.getByRole("tab", { name: "Cifras por persona" }).click();

      // The last 30 days by default: the reviewer's row, with both approvals and a wait, not "—".
      const { day, offset } = await browserDay(page);
      const [y, m, d] = day.split("-").map(Number) as [number, number, number];
      const first = new Date(Date.UTC(y, m - 1, d - 29)).toISOString().slice(0, 10);
      const figures = await adminApi<{ actor: string; decisions: number; medianProofToDecisionSeconds: number | null }[]>(`/api/admin/audit/figures?from=${first}&to=${day}&utcOffsetMinutes=${offset}`);
      const theirs = figures.find((p) => p.actor === reviewer.username);
      expect(theirs).toMatchObject({ decisions: 2 });
      expect(theirs?.medianProofToDecisionSeconds).toBeGreaterThanOrEqual(1);
      const person = page.locator(`[data-testid=figures-person][data-actor="${reviewer.username}"]`);
      await person.waitFor();
      expect(await person.getByTestId("figures-decisions").textContent()).toBe("2");
      const wait = (await person.getByTestId("figures-wait").textContent()) ?? "";
      expect(wait).not.toContain("—");
      expect(wait).toMatch(/^\d+ (s|min)$/);
      expect(await person.getByTestId("figures-busiest").textContent()).toMatch(/^Días con más decisiones: \d+ \S+ \(2\)$/);
      expect(await person.locator("[data-testid=figures-bars] g[data-day]").count()).toBe(30);

      await page.waitForLoadState("networkidle");
      await screenshot(page, `admin-audit-figures-${width}x${height}-es`);
      await check(page, `figures at ${width}`);
      await page.getByTestId("language-toggle").click();
      await page.getByRole("heading", { name: "Per-person figures" }).waitFor();
      await person.getByText(/^Busiest days: /).waitFor();
      expect(await person.getByTestId("figures-wait").textContent()).toBe(wait);
      await page.waitForLoadState("networkidle");
      await screenshot(page, `admin-audit-figures-${width}x${height}-en`);
      await check(page, `figures at ${width} in English`);
      await context.close();
    }

    // The export of the entries by that reviewer: the server's file, whole, as the browser saves it.
    const { context, page } = await newPage(browser, 1440, 900);
    await signIn(page, admin());
    await page.getByRole("tab", { name: "Registro" }).click();
    await page.getByLabel("Usuario").fill(reviewer.username);
    // The list shows the filter applied: only that reviewer's entries, its approvals among them.
    await page.waitForFunction((name) => {
      const rows = [...document.querySelectorAll("[data-testid=audit-row]")];
      return rows.some((r) => r.getAttribute("data-action") === "purchase.decided") && rows.every((r) => r.querySelectorAll("td")[2]?.textContent === name);
    }, reviewer.username);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.getByTestId("audit-export-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/^registro-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\r\n");
    expect(lines[0]).toBe("seq,at,actor,actorId,ip,action,target,changes,hash,prevHash");
    expect(lines.at(-1)).toBe("");
    // seq, at, actor, actorId, ip, action and target hold no comma: the first seven cells split plainly.
    const rows = lines.slice(1, -1).map((l) => l.split(","));
    expect(rows.every((r) => r[2] === reviewer.username)).toBe(true);
    const decisions = rows.filter((r) => r[5] === "purchase.decided");
    expect(decisions.map((r) => r[6]).sort()).toEqual(approved.map((id) => `purchase:${id}`).sort());
    expect(decisions[0]?.join(",")).toContain("status: pending → approved");
    await toast(page, "CSV descargado").waitFor();
    expect(await toast(page, "CSV descargado").textContent()).toContain(`${rows.length} entradas`);
    await context.close();
    expect(problems).toEqual([]);
  });

  it("signs out on every device: the other browser's next action lands on the login page and its token answers 401 session_ended", { timeout: 300_000 }, async () => {
    const here = await newPage(browser, 390, 844);
    const there = await newPage(browser, 1440, 900);
    // The other browser's live connection never reaches the server (which would close it within
    // a second): what signs it out is its next call.
    await there.page.routeWebSocket(/\/ws$/, () => undefined);
    await signIn(here.page, admin());
    await signIn(there.page, admin());
    const otherToken = (await there.page.evaluate(() => localStorage.getItem("auth_token"))) as string;
    // A third session, outside any browser.
    const apiSession = await apiToken(admin());
    const me = (token: string) => fetch(`${apiURL()}/api/admin/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await me(otherToken)).status).toBe(200);
    expect((await me(apiSession)).status).toBe(200);

    await here.page.getByRole("button", { name: "Cerrar sesión en todos los dispositivos" }).click();
    const dialog = here.page.getByTestId("logout-everywhere-dialog");
    expect(await dialog.getByRole("heading").textContent()).toBe("¿Cerrar sesión en todos los dispositivos?");
    await screenshot(here.page, "admin-logout-everywhere-390x844", { fullPage: false });
    expect(await horizontalOverflow(here.page)).toBe(0);
    await dialog.getByRole("button", { name: "Cerrar todas las sesiones" }).click();
    await here.page.waitForURL("**/admin/login");
    await toast(here.page, "Sesiones cerradas").waitFor();
    expect(await here.page.evaluate(() => [localStorage.getItem("auth_token"), localStorage.getItem("auth_user")])).toEqual([null, null]);

    for (const token of [otherToken, apiSession]) {
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe("session_ended");
    }

    // The other browser still shows the panel until it asks the server for something.
    expect(new URL(there.page.url()).pathname).toBe("/admin/dashboard");
    await there.page.getByRole("tab", { name: "Tasas de cambio" }).click();
    await there.page.waitForURL("**/admin/login");
    await toast(there.page, "Sesión expirada").waitFor();
    expect(await there.page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();

    // The trail names who did it.
    const trail = await adminApi<{ items: { actor: string; action: string }[] }>("/api/admin/audit?action=auth.sign_out_everywhere&limit=1");
    expect(trail.items[0]).toMatchObject({ actor: admin().username, action: "auth.sign_out_everywhere" });
    await here.context.close();
    await there.context.close();
  });
});
