// The review queue (issue 16): each proof with its light, reference, customer, amount, age and
// main reason; the light filter; 'Cargar más'; and the bulk decisions, which send only the
// selected purchases of their light and report what the server did. The API is stubbed at fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { swrConfig } from "@/lib/api/fetcher";
import type { BulkDecision, ProofQueue, QueuedProof } from "@/lib/api/types";
import { adminPurchaseFixture } from "./fixtures";
import { Intl, storeAdminSession } from "./intl";

const toast = { success: vi.fn(), warning: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: {
    success: (...a: unknown[]) => toast.success(...a),
    warning: (...a: unknown[]) => toast.warning(...a),
    error: (...a: unknown[]) => toast.error(...a),
    info: vi.fn(),
  },
}));
const { ProofQueueView } = await import("@/components/admin/purchases/proof-queue");

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  toast.success.mockReset();
  toast.warning.mockReset();
  toast.error.mockReset();
});

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const queued = (id: number, name: string, light: QueuedProof["light"], signals: QueuedProof["signals"], extra: Parameters<typeof adminPurchaseFixture>[0] = {}): QueuedProof => ({
  purchase: adminPurchaseFixture({ id, reference: `RF-QUEUE00${id}`, customerName: name, createdAt: hoursAgo(id), paymentProof: "/api/proofs/x.png", ...extra }),
  light,
  signals,
});

const GREEN = queued(1, "Ana Verde", "green", [{ kind: "amountMatches", read: { value: "170.00", currency: "USD" } }], { totalAmount: "170.00" });
const RED = queued(2, "Rita Roja", "red", [
  { kind: "amountMatches", read: { value: "170.00", currency: "USD" } },
  { kind: "nearReuse", other: 1, distance: 2 },
]);
const AMBER = queued(3, "Ámbar Gómez", "amber", [{ kind: "unreadable" }], { convertedTotal: { amount: "365.00", currency: "VES", rate: "36.5" } });
const PENDING = queued(4, "Pedro Pendiente", null, []);
const RED_2 = queued(5, "Raúl Rojo", "red", [{ kind: "editedWith", software: "PicsArt" }]);

/** GET the queue (by light, paged by `after`), POST bulk decisions answered by `decide`. */
function stubApi(pages: Record<string, ProofQueue>, decide: (body: { ids: number[]; status: string; adminNotes: string | null }) => BulkDecision = (b) => ({
  decided: b.ids.length,
  results: b.ids.map((id) => ({ id, outcome: "decided", status: b.status })),
})) {
  const asked: string[] = [];
  const posted: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      asked.push(url);
      if (url === "/api/admin/purchases/bulk-decision") {
        const body = JSON.parse(String(init?.body)) as { ids: number[]; status: string; adminNotes: string | null };
        posted.push(body);
        return new Response(JSON.stringify(decide(body)));
      }
      const query = url.startsWith("/api/admin/proof-queue?") ? url.slice("/api/admin/proof-queue?".length) : null;
      if (query !== null && pages[query]) return new Response(JSON.stringify(pages[query]));
      return new Response(JSON.stringify({ items: [], nextAfter: null }));
    }),
  );
  return { asked, posted };
}

const onOpen = vi.fn();
function show(locale: "es" | "en" = "es") {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <ProofQueueView onOpen={onOpen} />
      </Intl>
    </SWRConfig>,
  );
}

const ALL: ProofQueue = { items: [GREEN, RED, AMBER, PENDING, RED_2], nextAfter: null };
const table = () => screen.getByTestId("queue-table");
const rowOf = (reference: string) => table().querySelector<HTMLElement>(`[data-testid=queue-row][data-reference="${reference}"]`)!;

describe("the review queue", () => {
  it("shows each proof's light, reference, customer, amount, age and main reason in Spanish", async () => {
    stubApi({ "limit=50": ALL });
    show();
    await screen.findByTestId("queue-table");
    const rows = within(table()).getAllByTestId("queue-row");
    expect(rows.map((r) => r.dataset.light)).toEqual(["green", "red", "amber", "none", "red"]);

    const green = rowOf("RF-QUEUE001");
    expect(green).toHaveTextContent("Verde");
    expect(green).toHaveTextContent("Ana Verde");
    expect(green).toHaveTextContent("US$ 170,00");
    expect(green).toHaveTextContent("hace 1 h");
    expect(within(green).getByTestId("queue-reason")).toHaveTextContent("Monto y referencia coinciden, nada reutilizado ni editado");

    const red = rowOf("RF-QUEUE002");
    expect(red).toHaveTextContent("Rojo");
    expect(within(red).getByTestId("queue-reason")).toHaveTextContent("La misma imagen (guardada de nuevo) está en la compra #1");
    // The purchase the signal names opens in the dialog, as 'Ver' does.
    fireEvent.click(within(red).getByRole("button", { name: "Abrir la compra #1" }));
    expect(onOpen).toHaveBeenLastCalledWith(1);
    fireEvent.click(within(red).getByRole("button", { name: "Ver compra RF-QUEUE002" }));
    expect(onOpen).toHaveBeenLastCalledWith(2);

    const amber = rowOf("RF-QUEUE003");
    expect(amber).toHaveTextContent("Bs 365,00");
    expect(within(amber).getByTestId("queue-reason")).toHaveTextContent("No se encontró texto en el comprobante");
    const unchecked = rowOf("RF-QUEUE004");
    expect(unchecked).toHaveTextContent("Sin revisar");
    expect(within(unchecked).getByTestId("queue-reason")).toHaveTextContent("La verificación aún no termina o no se pudo hacer");
    expect(within(rowOf("RF-QUEUE005")).getByTestId("queue-reason")).toHaveTextContent("Editado con PicsArt");

    // The phone's cards carry the same proofs.
    expect(within(screen.getByTestId("queue-cards")).getAllByTestId("queue-item")).toHaveLength(5);
    expect(screen.getByTestId("bulk-approve")).toBeDisabled();
    expect(screen.getByTestId("bulk-reject")).toBeDisabled();
  });

  it("filters by light and order, and loads the next page after the last one", async () => {
    const { asked } = stubApi({
      "limit=50": { items: [GREEN], nextAfter: 1 },
      "limit=50&after=1": { items: [RED], nextAfter: null },
      "light=red&order=newest&limit=50": { items: [RED_2, RED], nextAfter: null },
    });
    show();
    await screen.findByTestId("queue-table");
    fireEvent.click(screen.getByTestId("queue-load-more"));
    await waitFor(() => expect(within(table()).getAllByTestId("queue-row")).toHaveLength(2));
    expect(asked).toContain("/api/admin/proof-queue?limit=50&after=1");
    expect(screen.queryByTestId("queue-load-more")).toBeNull();

    fireEvent.change(screen.getByLabelText("Luz"), { target: { value: "red" } });
    fireEvent.change(screen.getByLabelText("Orden"), { target: { value: "newest" } });
    await waitFor(() => expect(within(table()).getAllByTestId("queue-row").map((r) => r.dataset.reference)).toEqual(["RF-QUEUE005", "RF-QUEUE002"]));
    expect([...screen.getByLabelText("Luz").querySelectorAll("option")].map((o) => o.textContent)).toEqual(["Todas", "Verde", "Ámbar", "Roja", "Sin revisar"]);
    expect([...screen.getByLabelText("Orden").querySelectorAll("option")].map((o) => o.textContent)).toEqual(["Más antiguas primero", "Más recientes primero"]);
  });

  it("approves only the selected green ones, after a confirmation that lists them and mentions the e-mail", async () => {
    const { posted } = stubApi({ "limit=50": ALL });
    show();
    await screen.findByTestId("queue-table");
    fireEvent.click(within(table()).getByRole("checkbox", { name: "Seleccionar todas las compras mostradas" }));
    expect(screen.getByTestId("queue-selected")).toHaveTextContent("5 seleccionadas");
    expect(screen.getByTestId("bulk-approve")).toHaveTextContent("Aprobar verdes (1)");
    expect(screen.getByTestId("bulk-reject")).toHaveTextContent("Rechazar rojas (2)");

    fireEvent.click(screen.getByTestId("bulk-approve"));
    const dialog = await screen.findByTestId("bulk-decision-dialog");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("¿Aprobar 1 compra verde?");
    expect(dialog).toHaveTextContent("cada comprador recibirá su correo de confirmación");
    const listed = within(within(dialog).getByTestId("bulk-items")).getAllByRole("listitem");
    expect(listed.map((li) => li.textContent)).toEqual(["RF-QUEUE001 Ana VerdeUS$\u00a0170,00"]);
    expect(within(dialog).queryByRole("textbox")).toBeNull();
    fireEvent.click(within(dialog).getByTestId("confirm-bulk"));
    await waitFor(() => expect(posted).toEqual([{ ids: [1], status: "approved", adminNotes: null }]));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("1 compra aprobada", expect.objectContaining({ description: undefined })));
    await waitFor(() => expect(screen.queryByTestId("bulk-decision-dialog")).toBeNull());
  });

  it("rejects only the selected red ones with the note it requires, and names those left as they were", async () => {
    const { posted } = stubApi({ "limit=50": ALL }, () => ({
      decided: 1,
      results: [
        { id: 2, outcome: "decided", status: "rejected" },
        { id: 5, outcome: "notEligible", light: "amber", status: "pending" },
      ],
    }));
    show();
    await screen.findByTestId("queue-table");
    // An amber one, the unchecked one and both red ones: only the red ones go.
    for (const reference of ["RF-QUEUE002", "RF-QUEUE003", "RF-QUEUE004", "RF-QUEUE005"]) {
      fireEvent.click(within(rowOf(reference)).getByRole("checkbox", { name: `Seleccionar la compra ${reference}` }));
    }
    expect(screen.getByTestId("bulk-approve")).toHaveTextContent("Aprobar verdes (0)");
    expect(screen.getByTestId("bulk-approve")).toBeDisabled();
    fireEvent.click(screen.getByTestId("bulk-reject"));
    const dialog = await screen.findByTestId("bulk-decision-dialog");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("¿Rechazar 2 compras rojas?");
    expect(within(within(dialog).getByTestId("bulk-items")).getAllByRole("listitem").map((li) => li.dataset.reference)).toEqual(["RF-QUEUE002", "RF-QUEUE005"]);
    const confirm = within(dialog).getByTestId("confirm-bulk");
    expect(confirm).toBeDisabled();
    const notes = within(dialog).getByRole("textbox", { name: "Motivo del rechazo" });
    fireEvent.change(notes, { target: { value: "   " } });
    expect(confirm).toBeDisabled();
    fireEvent.change(notes, { target: { value: "Comprobante reutilizado" } });
    expect(confirm).toBeEnabled();
    fireEvent.click(confirm);
    await waitFor(() => expect(posted).toEqual([{ ids: [2, 5], status: "rejected", adminNotes: "Comprobante reutilizado" }]));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith("1 compra rechazada", expect.objectContaining({ description: "Sin decidir (su luz cambió o ya estaban decididas): RF-QUEUE005" })),
    );
  });

  it("speaks English", async () => {
    stubApi({ "limit=50": ALL }, () => ({ decided: 0, results: [{ id: 1, outcome: "notPending", status: "approved" }] }));
    show("en");
    await screen.findByTestId("queue-table");
    expect(rowOf("RF-QUEUE002")).toHaveTextContent("The same picture (saved again) is attached to purchase #1");
    expect(rowOf("RF-QUEUE004")).toHaveTextContent("Not checked");
    fireEvent.click(within(rowOf("RF-QUEUE001")).getByRole("checkbox", { name: "Select purchase RF-QUEUE001" }));
    expect(screen.getByTestId("bulk-approve")).toHaveTextContent("Approve greens (1)");
    expect(screen.getByTestId("bulk-reject")).toHaveTextContent("Reject reds (0)");
    fireEvent.click(screen.getByTestId("bulk-approve"));
    fireEvent.click(within(await screen.findByTestId("bulk-decision-dialog")).getByRole("button", { name: "Yes, approve" }));
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith("No purchase approved", expect.objectContaining({ description: "Not decided (their light changed or they were already decided): RF-QUEUE001" })));
  });
});
