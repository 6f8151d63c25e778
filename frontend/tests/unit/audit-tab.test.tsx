// The 'Registro' tab: the chain's check worded for each outcome, the entries (actions, who, from
// where, target, changes) in both languages, the filters and 'Cargar más' as the server is asked,
// the server's CSV of every entry found (its progress and cancel), and the way to the per-person
// figures. The API is stubbed at fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { swrConfig } from "@/lib/api/fetcher";
import type { AuditEntry, AuditPage, AuditVerification } from "@/lib/api/types";
import { Intl, storeAdminSession } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));
const { AuditTab } = await import("@/components/admin/audit/audit-tab");
const { VerificationBanner } = await import("@/components/admin/audit/verification-banner");

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  toast.success.mockReset();
  toast.error.mockReset();
});

const HEAD = `1a2b3c4d5e6f${"0".repeat(52)}`;
const INTACT: AuditVerification = { intact: true, verified: 128, headSeq: 128, headHash: HEAD };

const hash = (n: number) => n.toString(16).padStart(64, "0");
function entry(seq: number, action: string, extra: Partial<AuditEntry> = {}): AuditEntry {
  return { seq, at: "2026-01-15T18:05:00Z", actorId: 1, actor: "admin", ip: "203.0.113.7", action, target: null, changes: [], hash: hash(seq), prevHash: hash(seq - 1), ...extra };
}
const DECIDED = entry(8, "purchase.decided", {
  target: "purchase:42",
  changes: [
    { field: "status", before: "pending", after: "approved" },
    { field: "adminNotes", before: null, after: null },
  ],
});
const BULK = entry(7, "purchase.decided_in_bulk", {
  target: "purchase:43",
  changes: [
    { field: "status", before: "pending", after: "rejected" },
    { field: "adminNotes", before: null, after: "Comprobante reutilizado" },
  ],
});
const FAILED = entry(6, "auth.sign_in_failed", { actorId: null, actor: "pepe", ip: "198.51.100.9" });
const SIGN_IN = entry(5, "auth.sign_in");
const SIGN_OUT = entry(4, "auth.sign_out");
const EVERYWHERE = entry(3, "auth.sign_out_everywhere");
// An action a newer API records: shown by its raw name, as are its target and fields.
const NEWER = entry(2, "raffle.saved", { ip: null, target: "raffle:3", changes: [{ field: "title", before: "Moto", after: "Moto 0 km" }] });
const ALL = [DECIDED, BULK, FAILED, SIGN_IN, SIGN_OUT, EVERYWHERE, NEWER];

/**
 * The trail by query (the part after "?"), the check as `checks` answers in turn (the last one
 * repeats); `other` answers the rest (the export, the figures) when it returns a response.
 */
function stubApi(pages: Record<string, AuditPage | number>, checks: (AuditVerification | number)[] = [INTACT], other?: (url: string, init?: RequestInit) => Response | undefined) {
  const asked: string[] = [];
  let checked = 0;
  const json = (body: unknown) => (typeof body === "number" ? new Response(JSON.stringify({ code: "x", message: "falló" }), { status: body }) : new Response(JSON.stringify(body)));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      asked.push(url);
      const answer = other?.(url, init);
      if (answer) return answer;
      if (url === "/api/admin/audit/verification") return json(checks[Math.min(checked++, checks.length - 1)]);
      const query = url.startsWith("/api/admin/audit?") ? url.slice("/api/admin/audit?".length) : null;
      if (query !== null && pages[query] !== undefined) return json(pages[query]);
      return json({ items: [] });
    }),
  );
  return { asked, checks: () => checked };
}

const onOpenPurchase = vi.fn();
function show(what: "tab" | "banner", locale: "es" | "en" = "es") {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>{what === "tab" ? <AuditTab onOpenPurchase={onOpenPurchase} /> : <VerificationBanner />}</Intl>
    </SWRConfig>,
  );
}
const banner = () => screen.getByTestId("audit-verification");
const bannerIn = async (state: string) => waitFor(() => expect(banner()).toHaveAttribute("data-state", state));
const rowOf = (seq: number) => screen.getByTestId("audit-table").querySelector<HTMLElement>(`[data-testid=audit-row][data-seq="${seq}"]`)!;

describe("the chain's check", () => {
  it("says the trail is intact with its entries and the first 12 hex of the head's hash, the whole hash to copy", async () => {
    stubApi({});
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    show("banner");
    await bannerIn("intact");
    expect(screen.getByTestId("audit-verification-title")).toHaveTextContent("Registro íntegro · 128 entradas · huella 1a2b3c4d5e6f…");
    expect(banner().querySelector("code")).toHaveAttribute("title", HEAD);
    expect(banner().querySelector("code")).toHaveTextContent(/^1a2b3c4d5e6f$/);
    const copy = within(banner()).getByRole("button", { name: "Copiar huella" });
    expect(copy).toHaveAttribute("title", HEAD);
    expect(copy).toHaveAccessibleDescription(HEAD);
    fireEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith(HEAD);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Huella copiada"));
  });

  it.each([
    [{ problem: "edited", atSeq: 42, verified: 41 }, "Registro alterado: la entrada 42 fue modificada"],
    [{ problem: "missing", atSeq: 42, verified: 40 }, "Registro alterado: faltan entradas antes de la 42"],
    [{ problem: "truncated", atSeq: 41, verified: 41 }, "Registro alterado: el registro termina en la entrada 41 pero debería llegar a la 45"],
    [{ problem: "truncated", atSeq: 0, verified: 0 }, "Registro alterado: no queda ninguna entrada pero debería llegar a la 45"],
  ])("words a broken chain (%o) plainly", async (found, spanish) => {
    const broken: AuditVerification = { intact: false, headSeq: 45, headHash: HEAD, ...found };
    stubApi({}, [broken]);
    show("banner");
    await bannerIn("broken");
    expect(banner()).toHaveAttribute("role", "alert");
    expect(banner()).toHaveAttribute("data-problem", found.problem);
    expect(screen.getByTestId("audit-verification-title")).toHaveTextContent(spanish);
    expect(banner()).toHaveTextContent("Alguien con acceso a la base de datos cambió el registro");
    expect(banner()).not.toHaveTextContent("huella");
  });

  it.each([
    ["edited", 42, "Trail tampered with: entry 42 was modified"],
    ["missing", 42, "Trail tampered with: entries are missing before entry 42"],
    ["truncated", 41, "Trail tampered with: it ends at entry 41 but should reach entry 45"],
    ["truncated", 0, "Trail tampered with: no entry is left but it should reach entry 45"],
  ] as const)("in English: %s", async (problem, atSeq, english) => {
    stubApi({}, [{ intact: false, verified: 40, headSeq: 45, headHash: HEAD, problem, atSeq }]);
    show("banner", "en");
    await bannerIn("broken");
    expect(screen.getByTestId("audit-verification-title")).toHaveTextContent(english);
    expect(banner()).toHaveTextContent("The first 40 entries are in order. Someone with access to the database changed the trail");
  });

  it("names a problem this build does not know by its raw name", async () => {
    stubApi({}, [{ intact: false, verified: 3, headSeq: 5, headHash: HEAD, problem: "reordered", atSeq: 4 }]);
    show("banner");
    await bannerIn("broken");
    expect(screen.getByTestId("audit-verification-title")).toHaveTextContent("Registro alterado (reordered @ 4)");
  });

  it("checks again on 'Verificar de nuevo', and says so when the check cannot be read", async () => {
    const api = stubApi({}, [INTACT, { intact: false, verified: 41, headSeq: 45, headHash: HEAD, problem: "edited", atSeq: 42 }, 503]);
    show("banner");
    await bannerIn("intact");
    expect(screen.getByTestId("audit-verification-title")).toHaveTextContent("Registro íntegro · 128 entradas");
    fireEvent.click(screen.getByRole("button", { name: "Verificar de nuevo" }));
    await bannerIn("broken");
    expect(screen.getByTestId("audit-verification-title")).toHaveTextContent("la entrada 42 fue modificada");
    expect(api.checks()).toBe(2);
    // A check that fails replaces the earlier answer, which is no longer known to hold.
    fireEvent.click(screen.getByRole("button", { name: "Verificar de nuevo" }));
    await bannerIn("error");
    expect(api.checks()).toBe(3);
    expect(banner()).toHaveTextContent("No se pudo verificar el registro.");
    expect(banner()).not.toHaveTextContent("la entrada 42");
  });

  it("shows the error with a retry when the first check fails", async () => {
    stubApi({}, [500, INTACT]);
    show("banner");
    await bannerIn("error");
    expect(banner()).toHaveTextContent("No se pudo verificar el registro.");
    fireEvent.click(screen.getByRole("button", { name: "Verificar de nuevo" }));
    await bannerIn("intact");
  });
});

describe("the entries", () => {
  it("names each record as it is called now, the purchase by its reference and the raffle with a link (issue 31)", async () => {
    const named = [
      entry(12, "purchase.decided", { target: "purchase:42", targetName: "RF-7Q2K9" }),
      entry(11, "raffle.updated", { target: "raffle:3", targetName: "Moto 0 km" }),
      entry(10, "payment_method.updated", { target: "payment_method:5", targetName: "Zelle" }),
      entry(9, "exchange_rate.updated", { target: "exchange_rate:2", targetName: "USD → VES" }),
    ];
    stubApi({ "limit=50": { items: named } });
    show("tab");
    await screen.findByTestId("audit-table");
    const target = (seq: number) => within(rowOf(seq)).getByTestId("audit-target");
    fireEvent.click(within(rowOf(12)).getByRole("button", { name: "Abrir la compra RF-7Q2K9" }));
    expect(onOpenPurchase).toHaveBeenLastCalledWith(42);
    expect(target(12)).toHaveTextContent("Compra RF-7Q2K9");
    expect(target(11)).toHaveTextContent("Sorteo «Moto 0 km»");
    expect(target(11)).toHaveAttribute("href", "/sorteo/3");
    expect(target(10)).toHaveTextContent("Método de pago «Zelle»");
    expect(target(9)).toHaveTextContent("Tasa USD → VES");
    expect(target(9)).toHaveAttribute("title", "exchange_rate:2");
  });

  it("words each action, who and from where, the purchase it names and what changed, in Spanish", async () => {
    stubApi({ "limit=50": { items: ALL } });
    show("tab");
    await screen.findByTestId("audit-table");
    expect(screen.getAllByTestId("audit-row").map((r) => r.dataset.seq)).toEqual(["8", "7", "6", "5", "4", "3", "2"]);
    const action = (seq: number) => within(rowOf(seq)).getAllByRole("cell")[4]!.textContent;
    expect([8, 7, 6, 5, 4, 3, 2].map(action)).toEqual([
      "Compra decidida",
      "Compra decidida en lote",
      "Inicio de sesión fallido",
      "Inicio de sesión",
      "Cierre de sesión",
      "Cierre de sesión en todos los dispositivos",
      "raffle.saved",
    ]);

    const decided = rowOf(8);
    expect(decided).toHaveTextContent("admin");
    expect(decided).toHaveTextContent("203.0.113.7");
    expect(decided.querySelector("time")).toHaveAttribute("dateTime", "2026-01-15T18:05:00Z");
    // A decision without a note shows only the status.
    expect(within(decided).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["estado: pendiente → aprobada"]);
    fireEvent.click(within(decided).getByRole("button", { name: "Abrir la compra #42" }));
    expect(onOpenPurchase).toHaveBeenLastCalledWith(42);
    expect(within(decided).getByRole("button", { name: "Abrir la compra #42" })).toHaveTextContent("Compra #42");

    expect(within(rowOf(7)).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["estado: pendiente → rechazada", "nota: Comprobante reutilizado"]);

    // A failed sign-in: nobody signed in, and the name that was tried.
    const failed = rowOf(6);
    const who = within(failed).getAllByRole("cell")[2]!;
    expect(who).toHaveTextContent("—intentó «pepe»");
    expect(failed).toHaveTextContent("198.51.100.9");
    expect(within(failed).getAllByRole("cell")[6]).toHaveTextContent("—");

    const newer = rowOf(2);
    expect(within(newer).getByTestId("audit-target")).toHaveTextContent("raffle:3");
    expect(within(newer).queryByRole("button")).toBeNull();
    expect(within(newer).getAllByRole("cell")[3]).toHaveTextContent("—");
    expect(within(newer).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["título: Moto → Moto 0 km"]);

    // The phone's cards carry the same entries.
    expect(within(screen.getByTestId("audit-cards")).getAllByTestId("audit-item")).toHaveLength(7);
    expect(screen.getByTestId("audit-shown")).toHaveTextContent("7 entradas cargadas");
  });

  it("words them in English", async () => {
    stubApi({ "limit=50": { items: ALL } });
    show("tab", "en");
    await screen.findByTestId("audit-table");
    const action = (seq: number) => within(rowOf(seq)).getAllByRole("cell")[4]!.textContent;
    expect([8, 7, 6, 5, 4, 3, 2].map(action)).toEqual([
      "Purchase decided",
      "Purchase decided in bulk",
      "Failed sign-in",
      "Sign-in",
      "Sign-out",
      "Sign-out on every device",
      "raffle.saved",
    ]);
    expect(within(rowOf(7)).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["status: pending → rejected", "note: Comprobante reutilizado"]);
    expect(within(rowOf(6)).getAllByRole("cell")[2]).toHaveTextContent("—tried “pepe”");
    expect(within(rowOf(8)).getByRole("button", { name: "Open purchase #42" })).toHaveTextContent("Purchase #42");
    expect(screen.getByRole("columnheader", { name: "From (IP)" })).toBeInTheDocument();
  });

  it("offers every action worded, plus 'Todas', in the action filter", async () => {
    stubApi({});
    show("tab");
    const options = [...screen.getByLabelText("Acción").querySelectorAll("option")];
    expect(options.map((o) => [o.value, o.textContent])).toEqual([
      ["all", "Todas"],
      ["auth.sign_in", "Inicio de sesión"],
      ["auth.sign_in_failed", "Inicio de sesión fallido"],
      ["auth.sign_out", "Cierre de sesión"],
      ["auth.sign_out_everywhere", "Cierre de sesión en todos los dispositivos"],
      ["auth.password_changed", "Contraseña cambiada"],
      ["purchase.decided", "Compra decidida"],
      ["purchase.decided_in_bulk", "Compra decidida en lote"],
      ["purchase.reopened", "Compra reabierta"],
      ["purchase.test_created", "Compra de prueba creada"],
      ["draw.prizes_set", "Premios del sorteo definidos"],
      ["draw.ledger_frozen", "Lista de números congelada"],
      ["draw.result_recorded", "Resultado registrado"],
      ["draw.prize_drawn", "Premio sorteado"],
      ["draw.prize_delivered", "Premio entregado"],
      ["raffle.created", "Sorteo creado"],
      ["raffle.updated", "Sorteo editado"],
      ["raffle.deleted", "Sorteo eliminado"],
      ["payment_method.created", "Método de pago creado"],
      ["payment_method.updated", "Método de pago editado"],
      ["payment_method.deleted", "Método de pago eliminado"],
      ["exchange_rate.created", "Tasa de cambio creada"],
      ["exchange_rate.updated", "Tasa de cambio editada"],
      ["exchange_rate.deleted", "Tasa de cambio eliminada"],
      ["settings.branding_updated", "Marca actualizada"],
      ["settings.email_updated", "Configuración de correo actualizada"],
      ["settings.discounts_updated", "Descuentos actualizados"],
      ["settings.test_email_sent", "Correo de prueba enviado"],
      ["mail.retried", "Correo reintentado"],
      ["staff.created", "Cuenta del equipo creada"],
      ["staff.updated", "Cuenta del equipo editada"],
      ["staff.password_reset", "Contraseña restablecida"],
    ]);
  });

  it("words the team's entries, their roles and yes-or-no fields, and who acts outside the panel", async () => {
    const account = [
      { field: "username", before: null, after: "ana" },
      { field: "role", before: null, after: "reviewer" },
      { field: "disabled", before: null, after: "false" },
      { field: "must_change_password", before: null, after: "true" },
    ];
    const team = [
      entry(14, "staff.created", { actorId: null, actor: "command-line", ip: null, target: "admin:2", changes: account }),
      entry(13, "staff.updated", { target: "admin:2", changes: [{ field: "role", before: "reviewer", after: "manager" }, { field: "disabled", before: "false", after: "true" }] }),
      entry(12, "staff.password_reset", { target: "admin:2", changes: [{ field: "must_change_password", before: "false", after: "true" }] }),
      entry(11, "auth.password_changed", { actor: "ana", target: "admin:2" }),
      entry(10, "staff.created", { actorId: null, actor: "first-start", ip: null, target: "admin:1", changes: [{ field: "role", before: null, after: "owner" }] }),
      // A username that reads like the server is still a person.
      entry(9, "auth.sign_in", { actorId: 3, actor: "first-start" }),
    ];
    stubApi({ "limit=50": { items: team } });
    show("tab");
    await screen.findByTestId("audit-table");
    const cell = (seq: number, i: number) => within(rowOf(seq)).getAllByRole("cell")[i]!.textContent;
    const changes = (seq: number) => within(rowOf(seq)).queryAllByRole("listitem").map((li) => li.textContent);
    expect([14, 13, 12, 11].map((seq) => cell(seq, 4))).toEqual(["Cuenta del equipo creada", "Cuenta del equipo editada", "Contraseña restablecida", "Contraseña cambiada"]);
    expect(changes(14)).toEqual(["nombre de usuario: ana", "rol: Revisor", "desactivada: no", "debe cambiar la contraseña: sí"]);
    expect(changes(13)).toEqual(["rol: Revisor → Encargado", "desactivada: no → sí"]);
    expect(changes(12)).toEqual(["debe cambiar la contraseña: no → sí"]);
    expect(within(rowOf(11)).getByTestId("audit-target")).toHaveTextContent("admin:2");
    expect([14, 10, 9].map((seq) => cell(seq, 2))).toEqual(["Línea de comandos", "Primer arranque", "first-start"]);
    cleanup();

    show("tab", "en");
    await screen.findByTestId("audit-table");
    expect([14, 13, 12, 11].map((seq) => cell(seq, 4))).toEqual(["Team account created", "Team account edited", "Password reset", "Password changed"]);
    expect(changes(14)).toEqual(["username: ana", "role: Reviewer", "disabled: no", "must change password: yes"]);
    expect(changes(13)).toEqual(["role: Reviewer → Manager", "disabled: no → yes"]);
    expect([14, 10].map((seq) => cell(seq, 2))).toEqual(["Command line", "First start"]);
  });

  it("words a test e-mail (to whom, whether it went) and a retried one (which message), in both languages", async () => {
    const mail = [
      entry(17, "settings.test_email_sent", { changes: [{ field: "to", before: null, after: "ana@example.com" }, { field: "delivered", before: null, after: "true" }] }),
      entry(16, "settings.test_email_sent", { changes: [{ field: "to", before: null, after: "x@example.com" }, { field: "delivered", before: null, after: "false" }] }),
      entry(15, "mail.retried", { target: "mail:9" }),
      // A rate's `to` is still its currency.
      entry(14, "exchange_rate.updated", { target: "exchange_rate:2", changes: [{ field: "to", before: "VES", after: "COP" }] }),
    ];
    stubApi({ "limit=50": { items: mail } });
    show("tab");
    await screen.findByTestId("audit-table");
    const cell = (seq: number, i: number) => within(rowOf(seq)).getAllByRole("cell")[i]!.textContent;
    const changes = (seq: number) => within(rowOf(seq)).queryAllByRole("listitem").map((li) => li.textContent);
    expect([17, 15].map((seq) => cell(seq, 4))).toEqual(["Correo de prueba enviado", "Correo reintentado"]);
    expect(changes(17)).toEqual(["destinatario: ana@example.com", "entregado: sí"]);
    expect(changes(16)).toEqual(["destinatario: x@example.com", "entregado: no"]);
    expect(changes(14)).toEqual(["a: VES → COP"]);
    const retried = within(rowOf(15)).getByTestId("audit-target");
    expect(retried).toHaveTextContent(/^Correo n\.º 9$/);
    expect(retried).toHaveAttribute("title", "mail:9");
    expect(within(rowOf(15)).getAllByRole("cell")[6]).toHaveTextContent("—");
    expect(within(screen.getByTestId("audit-cards")).getAllByTestId("audit-target")[2]).toHaveTextContent("Correo n.º 9");
    cleanup();

    show("tab", "en");
    await screen.findByTestId("audit-table");
    expect([17, 15].map((seq) => cell(seq, 4))).toEqual(["Test e-mail sent", "E-mail retried"]);
    expect(changes(17)).toEqual(["recipient: ana@example.com", "delivered: yes"]);
    expect(changes(16)).toEqual(["recipient: x@example.com", "delivered: no"]);
    expect(within(rowOf(15)).getByTestId("audit-target")).toHaveTextContent(/^E-mail #9$/);
  });

  it("words an admin's test purchase, the purchase it names and what it was for, in both languages", async () => {
    const rehearsal = entry(18, "purchase.test_created", {
      target: "purchase:42",
      changes: [
        { field: "raffleId", before: null, after: "3" },
        { field: "tickets", before: null, after: "2" },
        { field: "totalAmount", before: null, after: "26.00" },
      ],
    });
    stubApi({ "limit=50": { items: [rehearsal] } });
    show("tab");
    await screen.findByTestId("audit-table");
    const changes = () => within(rowOf(18)).queryAllByRole("listitem").map((li) => li.textContent);
    expect(within(rowOf(18)).getAllByRole("cell")[4]).toHaveTextContent("Compra de prueba creada");
    expect(changes()).toEqual(["sorteo: 3", "números: 2", "total: 26.00"]);
    fireEvent.click(within(rowOf(18)).getByRole("button", { name: "Abrir la compra #42" }));
    expect(onOpenPurchase).toHaveBeenLastCalledWith(42);
    cleanup();

    show("tab", "en");
    await screen.findByTestId("audit-table");
    expect(within(rowOf(18)).getAllByRole("cell")[4]).toHaveTextContent("Test purchase created");
    expect(changes()).toEqual(["raffle: 3", "numbers: 2", "total: 26.00"]);
  });

  it("asks the server with each filter, the days as the local day's bounds", async () => {
    const { asked } = stubApi({ "limit=50": { items: ALL } });
    show("tab");
    await screen.findByTestId("audit-table");
    expect(asked).toContain("/api/admin/audit?limit=50");

    fireEvent.change(screen.getByLabelText("Usuario"), { target: { value: " Admin " } });
    fireEvent.change(screen.getByLabelText("Acción"), { target: { value: "purchase.decided" } });
    fireEvent.change(screen.getByLabelText("Objeto"), { target: { value: "42" } });
    fireEvent.change(screen.getByLabelText("Desde el día"), { target: { value: "15/01/2026" } });
    fireEvent.change(screen.getByLabelText("Hasta el día"), { target: { value: "20/01/2026" } });
    const expected = {
      actor: "Admin",
      action: "purchase.decided",
      target: "purchase:42",
      from: new Date(2026, 0, 15).toISOString(),
      until: new Date(2026, 0, 21).toISOString(),
      limit: "50",
    };
    await waitFor(() => expect(Object.fromEntries(new URLSearchParams(asked.at(-1)!.split("?")[1]))).toEqual(expected));
    await screen.findByTestId("audit-empty");
    expect(screen.getByTestId("audit-empty")).toHaveTextContent("No hay entradas con estos filtros.");
    expect(screen.getByTestId("audit-export-csv")).toBeDisabled();

    // Clearing a day asks without it.
    fireEvent.click(screen.getByRole("button", { name: "Borrar el día inicial" }));
    await waitFor(() => expect(new URLSearchParams(asked.at(-1)!.split("?")[1]).has("from")).toBe(false));
  });

  it("loads the older page before the last entry shown on 'Cargar más'", async () => {
    const { asked } = stubApi({
      "limit=50": { items: [DECIDED, BULK, FAILED], nextBefore: 6 },
      "limit=50&before=6": { items: [SIGN_IN, SIGN_OUT], nextBefore: null },
    });
    show("tab");
    await screen.findByTestId("audit-table");
    expect(screen.getAllByTestId("audit-row")).toHaveLength(3);
    fireEvent.click(screen.getByRole("button", { name: "Cargar más" }));
    await waitFor(() => expect(screen.getAllByTestId("audit-row").map((r) => r.dataset.seq)).toEqual(["8", "7", "6", "5", "4"]));
    expect(asked).toContain("/api/admin/audit?limit=50&before=6");
    expect(screen.queryByTestId("audit-load-more")).toBeNull();
    expect(screen.getByTestId("audit-shown")).toHaveTextContent("5 entradas cargadas");
  });

  it("shows an error with a retry when the trail cannot be read", async () => {
    stubApi({ "limit=50": 500 });
    show("tab");
    const error = await screen.findByTestId("audit-error");
    expect(error).toHaveTextContent("No se pudo cargar el registro.");
    expect(within(error).getByRole("button", { name: "Reintentar" })).toBeInTheDocument();
  });

  /** Every file handed to the browser to save: its name and its bytes. */
  function catchSaves() {
    const saved: { name: string; blob: Blob }[] = [];
    let blob: Blob | null = null;
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: (b: Blob) => ((blob = b), "blob:x"), revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blob! });
    });
    return saved;
  }

  /** A CSV body sent in `pieces`; after them it stays open until the request is aborted, when `hold`. */
  function csvBody(pieces: string[], init: RequestInit | undefined, hold = false) {
    const encoder = new TextEncoder();
    return new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(encoder.encode(piece));
          if (!hold) controller.close();
          else init?.signal?.addEventListener("abort", () => controller.error(new DOMException("The operation was aborted.", "AbortError")));
        },
      }),
      { headers: { "Content-Type": "text/csv; charset=utf-8" } },
    );
  }

  const HEADER = "\uFEFFseq,at,actor,actorId,ip,action,target,changes,hash,prevHash\r\n";

  it("exports every entry the filters find, streamed by the server, and saves it as sent", async () => {
    const row = `8,2026-01-15T18:05:00Z,admin,1,203.0.113.7,purchase.decided,purchase:42,"status: pending → approved",${hash(8)},${hash(7)}\r\n`;
    const exportAsked: string[] = [];
    stubApi({ "limit=50": { items: [DECIDED, FAILED] }, "action=purchase.decided&limit=50": { items: [DECIDED] } }, [INTACT], (url, init) => {
      if (!url.startsWith("/api/admin/audit/export")) return undefined;
      exportAsked.push(url);
      return csvBody([HEADER, row], init);
    });
    const saved = catchSaves();
    show("tab");
    await screen.findByTestId("audit-table");
    fireEvent.change(screen.getByLabelText("Acción"), { target: { value: "purchase.decided" } });
    await waitFor(() => expect(screen.getByTestId("audit-shown")).toHaveTextContent("1 entrada cargada"));
    fireEvent.click(screen.getByRole("button", { name: "Exportar CSV" }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("CSV descargado", { description: "1 entrada" }));
    // One request with the filters shown, none of the list's paging.
    expect(exportAsked).toEqual(["/api/admin/audit/export?action=purchase.decided"]);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toMatch(/^registro-\d{4}-\d{2}-\d{2}\.csv$/);
    // Byte for byte, the byte-order mark included.
    expect([...new Uint8Array(await saved[0]!.blob.arrayBuffer())]).toEqual([...new TextEncoder().encode(HEADER + row)]);
    expect(screen.getByRole("button", { name: "Exportar CSV" })).toBeEnabled();
  });

  it("counts the entries as they arrive, and a cancel stops the export without saving or an error", async () => {
    stubApi({ "limit=50": { items: [DECIDED] } }, [INTACT], (url, init) => {
      if (url.startsWith("/api/admin/audit/figures")) return new Response("[]");
      return url.startsWith("/api/admin/audit/export") ? csvBody([HEADER, `8,a\r\n7,b\r\n`, `6,"x\r\n=y"\r\n`], init, true) : undefined;
    });
    const saved = catchSaves();
    show("tab");
    await screen.findByTestId("audit-table");
    fireEvent.click(screen.getByRole("button", { name: "Exportar CSV" }));
    // A line break inside quotes ends no entry.
    await waitFor(() => expect(screen.getByTestId("audit-export-csv")).toHaveTextContent("Exportando 3 entradas..."));
    expect(screen.getByTestId("audit-export-csv")).toBeDisabled();
    // The figures view keeps the running export in reach.
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Cifras por persona" }));
    expect(screen.getByTestId("audit-export-csv")).toHaveTextContent("Exportando 3 entradas...");
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("audit-export-csv")).toBeNull());
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Entradas" }));
    expect(await screen.findByRole("button", { name: "Exportar CSV" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Cancelar" })).toBeNull();
    expect(saved).toEqual([]);
    expect(toast.error).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("says why an export failed", async () => {
    stubApi({ "limit=50": { items: [DECIDED] } }, [INTACT], (url) =>
      url.startsWith("/api/admin/audit/export") ? new Response(JSON.stringify({ code: "service_unavailable", message: "La base de datos no responde" }), { status: 503 }) : undefined,
    );
    const saved = catchSaves();
    show("tab");
    await screen.findByTestId("audit-table");
    fireEvent.click(screen.getByRole("button", { name: "Exportar CSV" }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("No se pudo exportar", { description: "La base de datos no responde" }));
    expect(saved).toEqual([]);
    expect(screen.getByRole("button", { name: "Exportar CSV" })).toBeEnabled();
  });
});

describe("the views", () => {
  it("opens the per-person figures on the last 30 days, in the browser's offset, and keeps the chosen days across views", async () => {
    const { asked } = stubApi({ "limit=50": { items: [DECIDED] } }, [INTACT], (url) => (url.startsWith("/api/admin/audit/figures") ? new Response("[]") : undefined));
    show("tab");
    await screen.findByTestId("audit-table");
    expect(asked.some((u) => u.startsWith("/api/admin/audit/figures"))).toBe(false);
    expect(screen.getByRole("tablist", { name: "Vistas del registro" })).toBeInTheDocument();

    fireEvent.mouseDown(screen.getByRole("tab", { name: "Cifras por persona" }));
    await screen.findByTestId("figures-empty");
    // The export belongs to the entries.
    expect(screen.queryByTestId("audit-export-csv")).toBeNull();
    expect(screen.queryByTestId("audit-filters")).toBeNull();
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const now = new Date();
    const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29);
    expect(asked.filter((u) => u.startsWith("/api/admin/audit/figures"))).toEqual([`/api/admin/audit/figures?from=${day(first)}&to=${day(now)}&utcOffsetMinutes=${-now.getTimezoneOffset()}`]);

    fireEvent.change(screen.getByLabelText("Desde el día"), { target: { value: "01/01/2026" } });
    await waitFor(() => expect(asked.at(-1)).toBe(`/api/admin/audit/figures?from=2026-01-01&to=${day(now)}&utcOffsetMinutes=${-now.getTimezoneOffset()}`));
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Entradas" }));
    await screen.findByTestId("audit-table");
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Cifras por persona" }));
    expect(await screen.findByLabelText("Desde el día")).toHaveValue("01/01/2026");
  });
});
