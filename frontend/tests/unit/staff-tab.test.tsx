// The 'Equipo' tab: each account with its role, state and last sign-in, the owner's own row
// without actions, a new account's password shown once, and each change asked of the server
// with its refusal kept in the dialog. The API is stubbed at fetch; the toasts are mocked.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { swrConfig } from "@/lib/api/fetcher";
import type { StaffMember } from "@/lib/api/types";
import { Intl, storeAdminSession } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));
const { StaffTab } = await import("@/components/admin/staff/staff-tab");
const { STAFF_REFRESH_MS, staffRefreshInterval } = await import("@/lib/swr/use-staff");

const member = (id: number, username: string, extra: Partial<StaffMember> = {}): StaffMember => ({
  id,
  username,
  role: "reviewer",
  disabled: false,
  mustChangePassword: false,
  createdAt: "2026-01-10T15:00:00Z",
  lastSignInAt: "2026-01-15T18:05:00Z",
  ...extra,
});
const TEAM = [
  member(1, "admin", { role: "owner" }),
  member(2, "ana", { role: "manager" }),
  member(3, "beto", { disabled: true, lastSignInAt: null }),
  member(4, "carla", { role: "catalogue", mustChangePassword: true, lastSignInAt: null }),
];

type Call = { url: string; method: string; body: unknown };
const MESSAGES: Record<string, string> = { own_account: "No puedes restablecer tu propia contraseña.", username_taken: "Ese nombre de usuario ya existe" };
/** GET /api/admin/staff answers `team`; each write answers `write` (a status, or a body for 200/201). */
function stubApi(write: number | object, code = "own_account") {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (method === "GET") return new Response(JSON.stringify(TEAM));
      if (typeof write === "number") return new Response(JSON.stringify({ code, message: MESSAGES[code] }), { status: write });
      return new Response(JSON.stringify(write), { status: url.endsWith("/staff") ? 201 : 200 });
    }),
  );
  return calls;
}

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  toast.success.mockReset();
  toast.error.mockReset();
});

function show(locale: "es" | "en" = "es") {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <StaffTab self={1} />
      </Intl>
    </SWRConfig>,
  );
  return screen.findByTestId("staff-tab").then(() => screen.findAllByTestId("staff-row"));
}
const rowOf = (username: string) => screen.getByTestId("staff-tab").querySelector<HTMLElement>(`[data-testid=staff-row][data-username="${username}"]`)!;
const cells = (username: string) => within(rowOf(username)).getAllByRole("cell").map((c) => c.textContent);

describe("the team", () => {
  it("is read again every few seconds only while someone has a handed-over password", () => {
    expect(staffRefreshInterval(TEAM)).toBe(STAFF_REFRESH_MS);
    expect(staffRefreshInterval(TEAM.map((m) => ({ ...m, mustChangePassword: false })))).toBe(0);
    expect(staffRefreshInterval(undefined)).toBe(0);
  });

  it("lists each account with its role, state and last sign-in; the owner's own row has no actions", async () => {
    stubApi({});
    await show();
    expect(screen.getAllByTestId("staff-row").map((r) => r.dataset.username)).toEqual(["admin", "ana", "beto", "carla"]);
    expect(cells("admin").slice(0, 3)).toEqual(["adminTú", "Dueño", "Activa"]);
    expect(within(rowOf("admin")).queryAllByRole("button")).toEqual([]);
    expect(cells("ana").slice(0, 3)).toEqual(["ana", "Encargado", "Activa"]);
    expect(within(rowOf("ana")).getAllByRole("button").map((b) => b.getAttribute("aria-label"))).toEqual([
      "Cambiar rol de ana",
      "Desactivar la cuenta de ana",
      "Restablecer contraseña de ana",
    ]);
    expect(cells("beto").slice(1, 4)).toEqual(["Revisor", "Desactivada", "Nunca"]);
    expect(within(rowOf("beto")).getByRole("button", { name: "Activar la cuenta de beto" })).toBeInTheDocument();
    expect(cells("carla").slice(1, 3)).toEqual(["Catálogo", "ActivaContraseña temporal"]);
    // The phone's cards: the same accounts, no actions on one's own.
    const cards = within(screen.getByTestId("staff-tab-cards")).getAllByTestId("staff-card");
    expect(cards.map((c) => c.dataset.name)).toEqual(["admin", "ana", "beto", "carla"]);
    expect(within(cards[0]!).queryAllByRole("button")).toEqual([]);
    expect(within(cards[1]!).getAllByRole("button")).toHaveLength(3);
  });

  it("creates an account and shows its password once, to copy", async () => {
    const calls = stubApi({ member: member(5, "dora", { mustChangePassword: true, lastSignInAt: null }), temporaryPassword: "k3J9-temporal-xQ2" });
    await show();
    fireEvent.click(screen.getByRole("button", { name: "Nueva cuenta" }));
    const dialog = await screen.findByTestId("new-account-dialog");
    // Each role said in a line, the fewest rights first chosen.
    expect(within(dialog).getByLabelText("Rol")).toHaveValue("reviewer");
    expect(dialog).toHaveTextContent("Solo revisar y decidir compras.");
    fireEvent.change(within(dialog).getByLabelText("Rol"), { target: { value: "catalogue" } });
    expect(dialog).toHaveTextContent("Solo crear y editar sorteos, métodos de pago y tasas.");
    fireEvent.change(within(dialog).getByLabelText("Nombre de usuario"), { target: { value: "Dora" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Crear cuenta" }));

    const handed = await screen.findByTestId("handed-over-dialog");
    expect(calls.filter((c) => c.method === "POST")).toEqual([{ url: "/api/admin/staff", method: "POST", body: { username: "Dora", role: "catalogue" } }]);
    expect(within(handed).getByRole("heading")).toHaveTextContent("Cuenta creada");
    expect(within(handed).getByTestId("handed-over-username")).toHaveTextContent("dora");
    expect(within(handed).getByTestId("temporary-password")).toHaveTextContent("k3J9-temporal-xQ2");
    expect(handed).toHaveTextContent("Solo se muestra esta vez, y deberá reemplazarla por una propia al iniciar sesión por primera vez.");
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    fireEvent.click(within(handed).getByRole("button", { name: "Copiar" }));
    expect(writeText).toHaveBeenCalledWith("k3J9-temporal-xQ2");
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Contraseña copiada"));
    fireEvent.click(within(handed).getByRole("button", { name: "Listo" }));
    await waitFor(() => expect(screen.queryByTestId("handed-over-dialog")).toBeNull());
  });

  it("checks the username before asking, and shows a name already taken under it", async () => {
    const calls = stubApi(409, "username_taken");
    await show();
    fireEvent.click(screen.getByRole("button", { name: "Nueva cuenta" }));
    const dialog = await screen.findByTestId("new-account-dialog");
    const name = within(dialog).getByLabelText("Nombre de usuario");
    fireEvent.change(name, { target: { value: "josé" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Crear cuenta" }));
    await waitFor(() => expect(name).toHaveAccessibleDescription("Usa solo letras sin tildes, números, punto, guion o guion bajo"));
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    fireEvent.change(name, { target: { value: "ana" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Crear cuenta" }));
    await waitFor(() => expect(name).toHaveAccessibleDescription("Ese nombre de usuario ya existe"));
  });

  it("disables an account after saying every session ends at once, and keeps a refusal in the dialog", async () => {
    const calls = stubApi(member(2, "ana", { role: "manager", disabled: true }));
    await show();
    fireEvent.click(within(rowOf("ana")).getByRole("button", { name: "Desactivar la cuenta de ana" }));
    let dialog = await screen.findByTestId("staff-access-dialog");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("¿Desactivar la cuenta de ana?");
    expect(dialog).toHaveTextContent("todas sus sesiones se cerrarán al instante");
    fireEvent.click(within(dialog).getByRole("button", { name: "Desactivar cuenta" }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Cuenta desactivada", { description: "ana" }));
    expect(calls.filter((c) => c.method === "PATCH")).toEqual([{ url: "/api/admin/staff/2", method: "PATCH", body: { disabled: true } }]);
    await waitFor(() => expect(screen.queryByTestId("staff-access-dialog")).toBeNull());

    stubApi(409);
    fireEvent.click(within(rowOf("ana")).getByRole("button", { name: "Restablecer contraseña de ana" }));
    dialog = await screen.findByTestId("staff-access-dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Restablecer contraseña" }));
    expect(await within(dialog).findByTestId("staff-refused")).toHaveTextContent("No puedes restablecer tu propia contraseña.");
    expect(screen.queryByTestId("handed-over-dialog")).toBeNull();
  });

  it("changes a role", async () => {
    const calls = stubApi(member(2, "ana", { role: "reviewer" }));
    await show();
    fireEvent.click(within(rowOf("ana")).getByRole("button", { name: "Cambiar rol de ana" }));
    const dialog = await screen.findByTestId("role-dialog");
    const save = within(dialog).getByRole("button", { name: "Cambiar rol" });
    expect(save).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText("Rol"), { target: { value: "reviewer" } });
    fireEvent.click(save);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Rol cambiado", { description: "ana ahora es Revisor." }));
    expect(calls.filter((c) => c.method === "PATCH")).toEqual([{ url: "/api/admin/staff/2", method: "PATCH", body: { role: "reviewer" } }]);
  });

  it("is worded in English", async () => {
    stubApi({});
    await show("en");
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Username", "Role", "State", "Last sign-in", "Created", "Actions"]);
    expect(cells("admin").slice(0, 3)).toEqual(["adminYou", "Owner", "Active"]);
    expect(cells("beto").slice(1, 4)).toEqual(["Reviewer", "Disabled", "Never"]);
    expect(within(rowOf("ana")).getByRole("button", { name: "Reset password of ana" })).toBeInTheDocument();
  });
});
