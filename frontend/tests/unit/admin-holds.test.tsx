// The panel's side of issue 14: the 'expired' status in filters, lists and dialogs, the hold's
// deadline of pending purchases, 'Reabrir compra', and the raffle's hold and closing fields.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { PurchaseFilterBar, NO_FILTERS } from "@/components/admin/purchases/purchase-filters";
import { PurchaseList } from "@/components/admin/purchases/purchase-list";
import { PurchaseStatusBadge } from "@/components/admin/status-badge";
import { ReopenDialog } from "@/components/admin/reopen-dialog";
import { RaffleDialog } from "@/components/admin/raffle-dialog";
import type { AdminPurchase } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { adminPurchaseFixture, raffleFixture } from "./fixtures";
import { Intl } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));
const opened: { current: AdminPurchase | undefined } = { current: undefined };
vi.mock("@/lib/swr/use-purchases", () => ({
  usePurchase: () => ({ data: opened.current, error: undefined }),
}));
const { PurchaseDetailDialog } = await import("@/components/admin/purchase-detail-dialog");

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  vi.unstubAllGlobals();
  toast.success.mockReset();
  toast.error.mockReset();
});

type Call = { url: string; method: string; body: unknown };
function stubApi(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? "GET", body: init.body };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const fresh = (node: React.ReactNode, locale: "es" | "en" = "es") =>
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <Intl locale={locale}>{node}</Intl>
    </SWRConfig>,
  );

describe("the expired status", () => {
  it("has its label in both languages", () => {
    const { unmount } = fresh(<PurchaseStatusBadge status="expired" />);
    expect(screen.getByText("Expirada")).toBeInTheDocument();
    unmount();
    fresh(<PurchaseStatusBadge status="expired" />, "en");
    expect(screen.getByText("Expired")).toBeInTheDocument();
  });

  it("is one of the status filters", () => {
    const onChange = vi.fn();
    fresh(<PurchaseFilterBar mode="all" values={NO_FILTERS} onChange={onChange} raffles={[]} />);
    const select = screen.getByLabelText("Estado");
    expect(within(select).getByRole("option", { name: "Expirada" })).toHaveValue("expired");
    fireEvent.change(select, { target: { value: "expired" } });
    expect(onChange).toHaveBeenCalledWith({ ...NO_FILTERS, status: "expired" });
  });
});

describe("the purchase list", () => {
  it("shows until when a pending purchase without a proof holds its numbers, in the table and on cards", () => {
    const deadline = "2026-11-20T12:20:00.000Z";
    const items = [
      adminPurchaseFixture({ id: 1, reference: "RF-AAAA1111", holdExpiresAt: deadline }),
      adminPurchaseFixture({ id: 2, reference: "RF-BBBB2222", status: "expired", holdExpiresAt: null }),
      adminPurchaseFixture({ id: 3, reference: "RF-CCCC3333", status: "approved", holdExpiresAt: deadline }),
    ];
    fresh(<PurchaseList mode="all" items={items} widthOf={() => 4} onView={vi.fn()} onDecide={vi.fn()} />);
    const rows = screen.getAllByTestId("purchase-row");
    expect(within(rows[0]!).getByTestId("hold-deadline")).toHaveTextContent(`Reserva hasta ${formatDateTime(deadline, "es", "short")}`);
    expect(within(rows[1]!).queryByTestId("hold-deadline")).toBeNull();
    expect(within(rows[1]!).getByText("Expirada")).toBeInTheDocument();
    // An expired purchase is not approved or rejected from the list.
    expect(within(rows[1]!).queryByRole("button", { name: /Aprobar/ })).toBeNull();
    expect(within(rows[2]!).queryByTestId("hold-deadline")).toBeNull();
    const cards = screen.getAllByTestId("purchase-card");
    expect(within(cards[0]!).getByTestId("hold-deadline")).toBeInTheDocument();
  });
});

describe("the purchase's dialog", () => {
  const show = (p: AdminPurchase, onReopen = vi.fn()) => {
    opened.current = p;
    fresh(<PurchaseDetailDialog purchaseId={p.id} ticketWidth={() => 4} onClose={vi.fn()} onDecide={vi.fn()} onReopen={onReopen} />);
    return onReopen;
  };

  it("offers 'Reabrir compra' on an expired purchase and explains what happened", () => {
    const p = adminPurchaseFixture({ status: "expired" });
    const onReopen = show(p);
    expect(screen.getByTestId("detail-expired-note")).toHaveTextContent("El comprador no envió el comprobante a tiempo");
    expect(within(screen.getByTestId("purchase-detail")).getByText("Expirada")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Reabrir compra" }));
    expect(onReopen).toHaveBeenCalledWith(p);
    expect(screen.queryByRole("button", { name: "Aprobar" })).toBeNull();
  });

  it("shows the hold's deadline of a pending purchase, and no reopen", () => {
    show(adminPurchaseFixture({ holdExpiresAt: "2026-11-20T12:20:00.000Z" }));
    expect(screen.getByTestId("detail-hold-until")).toHaveTextContent(formatDateTime("2026-11-20T12:20:00.000Z", "es"));
    expect(screen.queryByRole("button", { name: "Reabrir compra" })).toBeNull();
    expect(screen.getByRole("button", { name: "Aprobar" })).toBeInTheDocument();
  });
});

describe("reopening", () => {
  const expired = adminPurchaseFixture({ status: "expired", ticketNumbers: [7, 8] });
  const dialog = (onDone = vi.fn()) => {
    fresh(<ReopenDialog purchase={expired} ticketWidth={4} onClose={vi.fn()} onDone={onDone} />);
    return onDone;
  };

  it("asks first, then reopens and says so", async () => {
    const calls = stubApi(() => new Response(JSON.stringify({ ...expired, status: "pending", holdExpiresAt: "2026-11-20T12:30:00Z" })));
    const onDone = dialog();
    expect(screen.getByRole("dialog")).toHaveTextContent("¿Reabrir esta compra?");
    expect(screen.getByRole("dialog")).toHaveTextContent("La compra RF-7K3M9Q2X de Ana Pérez volverá a estar pendiente");
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Sí, reabrir" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ url: "/api/admin/purchases/41/reopen", method: "POST" });
    expect(toast.success).toHaveBeenCalledWith("Compra reabierta", { description: "La compra RF-7K3M9Q2X está pendiente de nuevo." });
  });

  it("keeps the server's message naming the numbers taken meanwhile, and stays open", async () => {
    stubApi(() => new Response('{"code":"numbers_no_longer_free","message":"Los números 0008 ya no están libres","numbers":[8]}', { status: 409 }));
    const onDone = dialog();
    fireEvent.click(screen.getByRole("button", { name: "Sí, reabrir" }));
    const refused = await screen.findByTestId("reopen-refused");
    expect(refused).toHaveTextContent("Algunos números ya no están libres");
    expect(refused).toHaveTextContent("Los números 0008 ya no están libres");
    expect(within(refused).getAllByTestId("reopen-taken-number").map((n) => n.textContent)).toEqual(["0008"]);
    expect(screen.getByRole("button", { name: "Sí, reabrir" })).toBeDisabled();
    expect(onDone).not.toHaveBeenCalled();
  });

  it("says when the buyer's allowance would be passed, in the server's words", async () => {
    stubApi(() => new Response('{"code":"validation_failed","message":"Datos inválidos","fields":{"ticketNumbers":"Solo puedes comprar 2 boletos por persona"}}', { status: 422 }));
    dialog();
    fireEvent.click(screen.getByRole("button", { name: "Sí, reabrir" }));
    expect(await screen.findByTestId("reopen-refused")).toHaveTextContent("Solo puedes comprar 2 boletos por persona");
  });

  it("closes with the server's message when the purchase is no longer expired", async () => {
    stubApi(() => new Response('{"code":"purchase_not_expired","message":"La compra no está expirada"}', { status: 409 }));
    const onDone = dialog();
    fireEvent.click(screen.getByRole("button", { name: "Sí, reabrir" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(toast.error).toHaveBeenCalledWith("Error al reabrir la compra", { description: "La compra no está expirada" });
  });
});

describe("the raffle dialog's hold and closing fields", () => {
  it("shows the defaults for a new raffle and sends them", async () => {
    const calls = stubApi(() => new Response(JSON.stringify(raffleFixture()), { status: 201 }));
    fresh(<RaffleDialog raffle={null} draws={false} onClose={vi.fn()} onSaved={vi.fn()} />);
    expect(screen.getByLabelText("Minutos de reserva")).toHaveValue(30);
    expect(screen.getByLabelText("Cerrar ventas N horas antes del sorteo")).toHaveValue(0);
    fireEvent.change(screen.getByLabelText("Título *"), { target: { value: "Moto" } });
    fireEvent.change(screen.getByLabelText("Descripción *"), { target: { value: "Una moto" } });
    fireEvent.change(screen.getByLabelText("Cerrar ventas N horas antes del sorteo"), { target: { value: "6" } });
    fireEvent.click(screen.getByRole("button", { name: "Crear sorteo" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(JSON.parse(String(calls[0]!.body))).toMatchObject({ holdMinutes: 30, salesCloseHoursBeforeDraw: 6 });
  });

  it("shows a raffle's own values and refuses ones out of range, in the server's words", async () => {
    const calls = stubApi(() => new Response("{}"));
    fresh(<RaffleDialog raffle={raffleFixture({ holdMinutes: 120, salesCloseHoursBeforeDraw: 2 })} draws onClose={vi.fn()} onSaved={vi.fn()} />);
    expect(screen.getByLabelText("Minutos de reserva")).toHaveValue(120);
    expect(screen.getByLabelText("Cerrar ventas N horas antes del sorteo")).toHaveValue(2);
    fireEvent.change(screen.getByLabelText("Minutos de reserva"), { target: { value: "20000" } });
    fireEvent.change(screen.getByLabelText("Cerrar ventas N horas antes del sorteo"), { target: { value: "800" } });
    fireEvent.click(screen.getByRole("button", { name: "Guardar cambios" }));
    expect(await screen.findByText("Debe estar entre 1 y 10.080")).toBeInTheDocument();
    expect(screen.getByText("Debe estar entre 0 y 720")).toBeInTheDocument();
    expect(screen.getByLabelText("Minutos de reserva")).toHaveAttribute("aria-invalid", "true");
    expect(calls).toHaveLength(0);
  });

  it("puts the server's refusal on the field it names", async () => {
    stubApi(() => new Response('{"code":"validation_failed","message":"Datos inválidos","fields":{"holdMinutes":"Debe estar entre 1 y 10080"}}', { status: 422 }));
    fresh(<RaffleDialog raffle={raffleFixture()} draws onClose={vi.fn()} onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "Guardar cambios" }));
    expect(await screen.findByText("Debe estar entre 1 y 10080")).toBeInTheDocument();
    expect(screen.getByLabelText("Minutos de reserva")).toHaveAttribute("aria-invalid", "true");
  });

  it("reads in English", () => {
    fresh(<RaffleDialog raffle={null} draws={false} onClose={vi.fn()} onSaved={vi.fn()} />, "en");
    expect(screen.getByLabelText("Hold minutes")).toHaveValue(30);
    expect(screen.getByLabelText("Close sales N hours before the draw")).toHaveValue(0);
  });
});
