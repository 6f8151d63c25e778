import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SiteHeader } from "@/components/layout/site-header";
import { clearSession } from "@/lib/auth/session";
import { Intl, storeAdminSession } from "./intl";

const push = vi.fn();
let pathname = "/sorteos";
vi.mock("next/navigation", () => ({
  usePathname: () => pathname,
  useRouter: () => ({ push, refresh: vi.fn(), replace: vi.fn(), prefetch: vi.fn() }),
}));

function header(locale: "es" | "en" = "es") {
  return render(
    <Intl locale={locale}>
      <SiteHeader companyName="Rifa" logoUrl="" />
    </Intl>,
  );
}

/** The desktop navigation's links as [name, href]. */
function desktopLinks() {
  const nav = screen.getAllByRole("navigation", { name: "Navegación principal" })[0] as HTMLElement;
  return within(nav)
    .getAllByRole("link")
    .map((a) => [a.textContent, a.getAttribute("href")]);
}

beforeEach(() => {
  pathname = "/sorteos";
  push.mockReset();
});
afterEach(() => {
  clearSession(false);
  localStorage.clear();
});

describe("header links", () => {
  it("gives visitors the raffles, how-to-win, verify and FAQ links, and no admin links", () => {
    header();
    expect(desktopLinks()).toEqual([
      ["Sorteos", "/sorteos"],
      ["Cómo ganar", "/#como-ser-un-ganador"],
      ["Verificar boletos", "/#verificar"],
      ["Preguntas frecuentes", "/#faq"],
    ]);
  });

  it("gives admins the dashboard and client-view links instead of FAQ and how-to-win", () => {
    storeAdminSession();
    header();
    expect(desktopLinks()).toEqual([
      ["Sorteos", "/sorteos"],
      ["Verificar boletos", "/#verificar"],
      ["Panel de administración", "/admin/dashboard"],
      ["Vista de cliente", "/"],
    ]);
  });

  it("switches to the admin links when a session appears, in English too", () => {
    header("en");
    expect(screen.getAllByRole("link", { name: "FAQ" })).toHaveLength(1);
    act(() => {
      storeAdminSession();
      window.dispatchEvent(new StorageEvent("storage", { key: "auth_token" }));
    });
    expect(screen.queryByRole("link", { name: "FAQ" })).toBeNull();
    expect(screen.getByRole("link", { name: "Admin dashboard" })).toHaveAttribute("href", "/admin/dashboard");
    expect(screen.getByRole("link", { name: "Client view" })).toHaveAttribute("href", "/");
  });
});

describe("mobile drawer", () => {
  it("opens from the menu button with the navigation, and closes when a link is followed", async () => {
    header();
    const button = screen.getByRole("button", { name: "Abrir menú" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("dialog")).toBeNull();

    fireEvent.click(button);
    const drawer = await screen.findByRole("dialog", { name: "Menú" });
    expect(button).toHaveAttribute("aria-expanded", "true");
    const links = within(drawer).getAllByRole("link").map((a) => a.textContent);
    expect(links).toEqual(["Sorteos", "Cómo ganar", "Verificar boletos", "Preguntas frecuentes"]);

    // A section link from another page goes home and closes the drawer.
    fireEvent.click(within(drawer).getByRole("link", { name: "Preguntas frecuentes" }));
    expect(push).toHaveBeenCalledWith("/");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(button).toHaveAttribute("aria-expanded", "false");
  });

  it("closes with its close button", async () => {
    header();
    fireEvent.click(screen.getByRole("button", { name: "Abrir menú" }));
    const drawer = await screen.findByRole("dialog", { name: "Menú" });
    fireEvent.click(within(drawer).getByRole("button", { name: "Menú" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
