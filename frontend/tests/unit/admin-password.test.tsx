// 'Cambiar contraseña' from the panel's header: the form's own checks, the server's refusals under
// their fields, and a change that keeps this page signed in with the new token the answer brings,
// although the server ends every session of the account (this page's live connection too) while
// it answers. The API is stubbed at fetch; the router and the toasts are mocked.
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
      <p data-testid="stored-user">{session.user.username}</p>
      <AdminHeader session={session} live="live" onLogout={() => logout("user")} onLogoutEverywhere={logoutEverywhere} onChangePassword={changeOwnPassword} />
      <button type="button" onClick={() => logout("expired")}>
        refused
      </button>
    </>
  );
}

const NEW_TOKEN = `e30.${btoa(JSON.stringify({ sub: "1", exp: Math.floor(Date.now() / 1000) + 7200 }))}.new`;
const NEW_USER = { id: 1, username: "admin", role: "admin", authenticated: true, privileged: true, staffRole: "owner", permissions: ["purchases"], mustChangePassword: false };

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

async function openDialog(name = "Cambiar contraseña") {
  fireEvent.click(await screen.findByRole("button", { name }));
  return screen.findByTestId("change-password-dialog");
}

function fill(dialog: HTMLElement, labels: [string, string, string], values: [string, string, string]) {
  labels.forEach((label, i) => fireEvent.change(within(dialog).getByLabelText(label, { exact: true }), { target: { value: values[i] } }));
}
const ES: [string, string, string] = ["Contraseña actual", "Nueva contraseña", "Repite la nueva contraseña"];

describe("changing one's own password", () => {
  it("checks that the new password is long enough and typed twice the same, before asking the server", async () => {
    const api = vi.fn();
    vi.stubGlobal("fetch", api);
    show();
    const dialog = await openDialog();
    expect(dialog).toHaveTextContent("Al cambiarla se cierra la sesión en tus otros dispositivos");
    fill(dialog, ES, ["vieja", "corta", "otra"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cambiar contraseña" }));
    expect(await within(dialog).findByText("Debe tener al menos 12 caracteres")).toBeInTheDocument();
    expect(within(dialog).getByText("Las contraseñas no coinciden")).toBeInTheDocument();
    expect(api).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of the current password under its field, and stays signed in", async () => {
    const api = vi.fn(async () =>
      new Response(JSON.stringify({ code: "validation_failed", message: "Revisa los campos marcados", fields: { currentPassword: "La contraseña actual no es correcta" } }), { status: 422 }),
    );
    vi.stubGlobal("fetch", api);
    show();
    const dialog = await openDialog();
    fill(dialog, ES, ["equivocada", "Tz8#qL2m!vR9xW4k", "Tz8#qL2m!vR9xW4k"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cambiar contraseña" }));
    const current = within(dialog).getByLabelText("Contraseña actual", { exact: true });
    await waitFor(() => expect(current).toHaveAttribute("aria-invalid", "true"));
    expect(current).toHaveAccessibleDescription("La contraseña actual no es correcta");
    expect(api).toHaveBeenCalledWith("/api/admin/password", expect.objectContaining({ method: "POST", body: JSON.stringify({ currentPassword: "equivocada", newPassword: "Tz8#qL2m!vR9xW4k" }) }));
    expect(localStorage.getItem("auth_token")).toBe(token);
    expect(toast.error).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("keeps this page signed in with the new token, though its live connection is refused meanwhile, and says the other devices were signed out", async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    show();
    const dialog = await openDialog();
    fill(dialog, ES, ["la-que-me-dieron", "Tz8#qL2m!vR9xW4k", "Tz8#qL2m!vR9xW4k"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cambiar contraseña" }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // Every session of the account ends before the answer arrives, this page's connection with them.
    fireEvent.click(screen.getByRole("button", { name: "refused", hidden: true }));
    expect(toast.warning).not.toHaveBeenCalled();
    answer(new Response(JSON.stringify({ token: NEW_TOKEN, expiresAt: "2030-01-01T00:00:00Z", user: NEW_USER })));
    await waitFor(() => expect(localStorage.getItem("auth_token")).toBe(NEW_TOKEN));
    expect(JSON.parse(localStorage.getItem("auth_user")!)).toEqual(NEW_USER);
    expect(toast.success).toHaveBeenCalledWith("Contraseña cambiada", { description: "Se cerró la sesión en tus otros dispositivos." });
    await waitFor(() => expect(screen.queryByTestId("change-password-dialog")).toBeNull());
    expect(replace).not.toHaveBeenCalled();
    expect(toast.warning).not.toHaveBeenCalled();
    // Once the new token is stored, a refusal is an expiry again.
    fireEvent.click(screen.getByRole("button", { name: "refused" }));
    expect(replace).toHaveBeenCalledWith("/admin/login");
  });

  it("toasts a refusal that names no field (too many attempts)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ code: "rate_limited", message: "Demasiados intentos. Espera 60 segundos e inténtalo de nuevo." }), { status: 429 })),
    );
    show();
    const dialog = await openDialog();
    fill(dialog, ES, ["equivocada", "Tz8#qL2m!vR9xW4k", "Tz8#qL2m!vR9xW4k"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cambiar contraseña" }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("No se pudo cambiar la contraseña", { description: "Demasiados intentos. Espera 60 segundos e inténtalo de nuevo." }));
    expect(screen.getByTestId("change-password-dialog")).toBeInTheDocument();
  });

  it("is worded in English", async () => {
    vi.stubGlobal("fetch", vi.fn());
    show("en");
    const dialog = await openDialog("Change password");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("Change password");
    for (const label of ["Current password", "New password", "Repeat the new password"]) expect(within(dialog).getByLabelText(label, { exact: true })).toBeInTheDocument();
  });
});
