// Signing out from the panel's header: the server ends the session (best effort), and 'Cerrar
// sesión en todos los dispositivos', once confirmed, ends every session of the account before this
// browser forgets its own. The API is stubbed at fetch; the router and the toasts are mocked.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Intl, storeAdminSession } from "./intl";

const replace = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ replace, push: vi.fn(), refresh: vi.fn() }) }));
const toast = { success: vi.fn(), warning: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: {
    success: (...a: unknown[]) => toast.success(...a),
    warning: (...a: unknown[]) => toast.warning(...a),
    error: (...a: unknown[]) => toast.error(...a),
    info: vi.fn(),
  },
}));
const { AdminHeader } = await import("@/components/admin/admin-header");
const { useRequiredSession } = await import("@/components/admin/use-admin-session");

/** The dashboard's wiring of the header to the session; "refused" is the live connection's refusal (close 1008). */
function Panel() {
  const { session, logout, logoutEverywhere, changeOwnPassword } = useRequiredSession();
  if (!session) return <p>signed out</p>;
  return (
    <>
      <AdminHeader session={session} live="live" onLogout={() => logout("user")} onLogoutEverywhere={logoutEverywhere} onChangePassword={changeOwnPassword} />
      <button type="button" onClick={() => logout("expired")}>
        refused
      </button>
    </>
  );
}

type Call = { url: string; method: string; authorization: string | undefined; storedToken: string | null };
/** Answers each POST with `answer` (a status, or a network failure), noting what was sent and what was stored meanwhile. */
function stubApi(answer: number | "offline") {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ url, method: init.method ?? "GET", authorization: headers.Authorization, storedToken: localStorage.getItem("auth_token") });
      if (answer === "offline") throw new TypeError("Failed to fetch");
      if (answer === 204) return new Response(null, { status: 204 });
      return new Response(JSON.stringify({ code: answer === 401 ? "session_ended" : "service_unavailable", message: "No disponible" }), { status: answer });
    }),
  );
  return calls;
}

let token = "";
beforeEach(() => {
  storeAdminSession();
  token = localStorage.getItem("auth_token")!;
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  replace.mockReset();
  for (const fn of Object.values(toast)) fn.mockReset();
});

const show = (locale: "es" | "en" = "es") =>
  render(
    <Intl locale={locale}>
      <Panel />
    </Intl>,
  );

describe("signing out everywhere", () => {
  it("asks first, then ends every session on the server with this token, then clears this one", async () => {
    const calls = stubApi(204);
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Cerrar sesión en todos los dispositivos" }));
    const dialog = await screen.findByTestId("logout-everywhere-dialog");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("¿Cerrar sesión en todos los dispositivos?");
    expect(dialog).toHaveTextContent("también esta");
    expect(calls).toEqual([]);

    fireEvent.click(within(dialog).getByRole("button", { name: "Cerrar todas las sesiones" }));
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/admin/login"));
    // One call, with the token, sent while it was still stored: the server first, then this browser.
    expect(calls).toEqual([{ url: "/api/admin/logout-everywhere", method: "POST", authorization: `Bearer ${token}`, storedToken: token }]);
    expect([localStorage.getItem("auth_token"), localStorage.getItem("auth_user")]).toEqual([null, null]);
    expect(toast.success).toHaveBeenCalledWith("Sesiones cerradas", { description: "Cerraste sesión en todos los dispositivos, también en este.", id: "session" });
    expect(screen.getByText("signed out")).toBeInTheDocument();
  });

  it("does not call its own live connection's refusal, while every session ends, an expiry", async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    show();
    fireEvent.click(await screen.findByTestId("logout-everywhere"));
    fireEvent.click(await screen.findByTestId("confirm-logout-everywhere"));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // The server closes this page's connection before its answer arrives (the dialog hides the rest from the tree).
    fireEvent.click(screen.getByRole("button", { name: "refused", hidden: true }));
    expect(toast.warning).not.toHaveBeenCalled();
    expect(localStorage.getItem("auth_token")).toBe(token);
    answer(new Response(null, { status: 204 }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Sesiones cerradas", expect.anything()));
    expect(toast.warning).not.toHaveBeenCalled();
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(replace).toHaveBeenCalledWith("/admin/login");
  });

  it("stays signed in, with the dialog open, when the server could not end the sessions", async () => {
    const calls = stubApi(503);
    show();
    fireEvent.click(await screen.findByTestId("logout-everywhere"));
    fireEvent.click(await screen.findByTestId("confirm-logout-everywhere"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("No se pudieron cerrar las sesiones", { description: "No disponible" }));
    expect(calls.map((c) => c.url)).toEqual(["/api/admin/logout-everywhere"]);
    expect(localStorage.getItem("auth_token")).toBe(token);
    expect(replace).not.toHaveBeenCalled();
    expect(screen.getByTestId("confirm-logout-everywhere")).toBeEnabled();
    // Cancel leaves everything as it was.
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("logout-everywhere-dialog")).toBeNull());
    expect(localStorage.getItem("auth_token")).toBe(token);
  });

  it("signs out as expired when this session had already ended (401 session_ended)", async () => {
    stubApi(401);
    show();
    fireEvent.click(await screen.findByTestId("logout-everywhere"));
    fireEvent.click(await screen.findByTestId("confirm-logout-everywhere"));
    await waitFor(() => expect(replace).toHaveBeenCalledWith("/admin/login"));
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(toast.warning).toHaveBeenCalledWith("Sesión expirada", expect.objectContaining({ id: "session" }));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("is worded in English", async () => {
    stubApi(204);
    show("en");
    fireEvent.click(await screen.findByRole("button", { name: "Sign out on every device" }));
    const dialog = await screen.findByTestId("logout-everywhere-dialog");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("Sign out on every device?");
    expect(within(dialog).getByRole("button", { name: "Sign out everywhere" })).toBeInTheDocument();
  });
});

describe("signing out", () => {
  it.each([204, 503, "offline"] as const)("ends the session on the server and clears it here, whatever the server answers (%s)", async (answer) => {
    const calls = stubApi(answer);
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Cerrar sesión" }));
    expect(replace).toHaveBeenCalledWith("/admin/login");
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(calls).toEqual([{ url: "/api/admin/logout", method: "POST", authorization: `Bearer ${token}`, storedToken: token }]);
    expect(toast.success).toHaveBeenCalledWith("Sesión cerrada", { description: "Has cerrado sesión exitosamente", id: "session" });
    // A late failure changes nothing here.
    await new Promise((r) => setTimeout(r, 10));
    expect(toast.error).not.toHaveBeenCalled();
    expect(toast.warning).not.toHaveBeenCalled();
  });
});
