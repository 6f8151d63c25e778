import type { BrowserContext, Page } from "playwright-core";
import { inject } from "vitest";
import { FIRST_PRIZE, apiURL, baseURL } from "./helpers";

export type Lang = "es" | "en";
export type Raffle = { id: number; title: string; description: string; status: string; price: string; maxTickets: number; drawDate: string | null };

export const admin = () => ({ username: inject("adminUsername"), password: inject("adminPassword") });

let session: { token: string; user: unknown } | null = null;

/** The bootstrap admin's session from the API (one sign-in for the whole file: logins are rate-limited). */
export async function adminSession(): Promise<{ token: string; user: unknown }> {
  if (session) return session;
  const response = await fetch(`${apiURL()}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(admin()),
  });
  if (!response.ok) throw new Error(`login ${response.status}`);
  session = (await response.json()) as { token: string; user: unknown };
  return session;
}

/** The page's language as the toggle stores it: the cookie the server reads and the storage key. */
export async function withLanguage(context: BrowserContext, lang: Lang) {
  await context.addCookies([{ name: "NEXT_LOCALE", value: lang, url: baseURL() }]);
  await context.addInitScript((l) => window.localStorage.setItem("language", l), lang);
}

/** Signs the browser in as the bootstrap admin without the login page (stored session, SPEC §3). */
export async function withAdminSession(context: BrowserContext) {
  const { token, user } = await adminSession();
  await context.addInitScript(
    ([t, u]) => {
      window.localStorage.setItem("auth_token", t);
      window.localStorage.setItem("auth_user", u);
    },
    [token, JSON.stringify(user)] as const,
  );
}

export async function adminFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const { token } = await adminSession();
  const response = await fetch(`${apiURL()}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...(init.body ? { "Content-Type": "application/json" } : {}), ...(init.headers ?? {}) },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A raffle of its own for one test: its numbers are free, price 2, limits 1..20. */
export async function newRaffle(title: string, status = "available"): Promise<Raffle> {
  return adminFetch<Raffle>("/api/admin/raffles", {
    method: "POST",
    body: JSON.stringify({ title, description: "Sorteo de una prueba de navegador", price: 2, maxTickets: 500, maxTicketsPerPurchase: 20, drawDate: "2030-01-15T23:59:59.999Z", status, prizes: [FIRST_PRIZE] }),
  });
}

export async function pickNumber(page: Page, label: string, search: string, button: string) {
  await page.getByLabel(search).fill(label);
  await page.getByRole("button", { name: `${button} ${label}`, exact: true }).click();
  await page.getByLabel(search).fill("");
}

/** The texts a person reads on the page: visible text and the names given to controls. */
export function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = Array.from(document.querySelectorAll("[aria-label],[placeholder],[title]")).flatMap((el) =>
      ["aria-label", "placeholder", "title"].map((a) => el.getAttribute(a) ?? ""),
    );
    return [document.title, document.body.innerText, ...attributes].join("\n");
  });
}
