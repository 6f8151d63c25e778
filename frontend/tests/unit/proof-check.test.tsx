// The proof check in the purchase's dialog (issue 16): the payment reference among the fields,
// the light with its meaning, one line per signal in the reviewer's language, another purchase
// named by a signal opened in the same dialog, the text read with its marks, and a pending check
// read again until it is done. The API is stubbed at fetch with its documented shapes.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { PurchaseDetailDialog } from "@/components/admin/purchase-detail-dialog";
import { swrConfig } from "@/lib/api/fetcher";
import type { AdminPurchase, ProofCheck } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { adminPurchaseFixture } from "./fixtures";
import { Intl, storeAdminSession } from "./intl";

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const PROOF = "/api/proofs/abc.png";
const purchases: Record<number, AdminPurchase> = {
  41: adminPurchaseFixture({
    id: 41,
    reference: "RF-7K3M9Q2X",
    paymentProof: PROOF,
    paymentReference: "0123-456789",
    totalAmount: "10.00",
    convertedTotal: { amount: "365.00", currency: "VES", rate: "36.5" },
  }),
  7: adminPurchaseFixture({ id: 7, reference: "RF-OTRA0007", customerName: "Luis Otro", paymentProof: PROOF, paymentReference: null }),
};

const RED: ProofCheck = {
  status: "done",
  light: "red",
  checkedAt: "2026-11-20T12:00:00Z",
  text: "Banesco\nMonto: Bs. 360,00\nReferencia: 0123456789\n",
  signals: [
    { kind: "exactReuse", other: 7 },
    { kind: "amountDiffers", read: { value: "360.00", currency: "VES" }, expected: { value: "365.00", currency: "VES" } },
    { kind: "referenceMatches", reference: "0123456789" },
    { kind: "editedWith", software: "Adobe Photoshop 25.0" },
    { kind: "datedAfterPurchase", takenAt: "2026-11-21T09:30:00Z" },
  ],
};
const NONE: ProofCheck = { status: "none", signals: [] };

/** Answers each purchase, and each proof check from `checks` (one after another, the last repeated). */
function stubApi(checks: Record<number, ProofCheck[]>) {
  const asked: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(url);
      const check = /\/api\/admin\/purchases\/(\d+)\/proof-check$/.exec(url);
      if (check) {
        const queue = checks[Number(check[1])] ?? [NONE];
        return new Response(JSON.stringify(queue.length > 1 ? queue.shift() : queue[0]));
      }
      const one = /\/api\/admin\/purchases\/(\d+)$/.exec(url);
      if (one && purchases[Number(one[1])]) return new Response(JSON.stringify(purchases[Number(one[1])]));
      return new Response("{}", { status: 404 });
    }),
  );
  return asked;
}

function open(locale: "es" | "en" = "es") {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <PurchaseDetailDialog purchaseId={41} ticketWidth={() => 4} onClose={vi.fn()} onDecide={vi.fn()} onReopen={vi.fn()} />
      </Intl>
    </SWRConfig>,
  );
}

describe("the purchase's proof check", () => {
  it("shows the payment reference, the expected amount, the light and every signal in Spanish", async () => {
    stubApi({ 41: [RED], 7: [NONE] });
    open();
    const reference = await screen.findByTestId("detail-payment-reference");
    expect(reference).toHaveTextContent("0123-456789");
    expect(reference).toHaveClass("font-mono");

    const section = await screen.findByTestId("proof-check");
    expect(within(section).getByRole("heading", { name: "Verificación del comprobante" })).toBeInTheDocument();
    expect(screen.getByTestId("proof-check-expected").textContent).toBe("Bs\u00a0365,00");
    const light = await within(section).findByTestId("proof-check-light");
    expect(light).toHaveAttribute("data-light", "red");
    expect(light).toHaveTextContent("Rojo");
    expect(light).toHaveTextContent("Reutilizado, editado o monto distinto");

    const lines = within(screen.getByTestId("proof-check-signals")).getAllByRole("listitem").map((li) => within(li).getByTestId("signal-text").textContent);
    expect(lines).toEqual([
      "El mismo archivo está en la compra #7",
      "Monto leído Bs\u00a0360,00; se esperaba Bs\u00a0365,00",
      "Referencia leída 0123456789: coincide con la del comprador",
      "Editado con Adobe Photoshop 25.0",
      `Fechado después de la compra: ${formatDateTime("2026-11-21T09:30:00Z", "es")}`,
    ]);

    // The text read, folded, with the amount and the reference marked.
    const text = screen.getByTestId("proof-check-text");
    expect(within(text).getByText("Texto leído")).toBeInTheDocument();
    const marks = text.querySelectorAll("mark");
    expect([...marks].map((m) => `${m.dataset.mark}:${m.textContent}`)).toEqual(["amount:360,00", "reference:0123456789"]);
    expect(text.querySelector("pre")?.textContent).toBe(RED.text?.trim());
  });

  it("opens the purchase a signal names in the same dialog, and goes back", async () => {
    stubApi({ 41: [RED], 7: [NONE] });
    open();
    fireEvent.click(await screen.findByRole("button", { name: "Abrir la compra #7" }));
    const dialog = screen.getByTestId("purchase-detail");
    await within(dialog).findByText("Luis Otro");
    expect(dialog).toHaveAttribute("data-purchase-id", "7");
    expect(within(dialog).getByTestId("detail-payment-reference")).toHaveTextContent("—");
    // No check for that one yet: the section says nothing but the expected amount.
    await waitFor(() => expect(screen.getByTestId("proof-check")).toHaveAttribute("data-status", "none"));
    expect(screen.queryByTestId("proof-check-light")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Volver a RF-7K3M9Q2X" }));
    await within(dialog).findByText("Ana Pérez");
    expect(dialog).toHaveAttribute("data-purchase-id", "41");
    expect(screen.queryByTestId("detail-back")).toBeNull();
  });

  it("compares the proof with the one a reuse signal names, side by side, each under its reference and customer", async () => {
    purchases[7] = { ...purchases[7]!, paymentProof: "/api/proofs/other.png" };
    stubApi({ 41: [RED], 7: [NONE] });
    open();
    // Only the signals naming another purchase offer it.
    const compare = await screen.findByRole("button", { name: "Comparar con el comprobante de la compra #7" });
    expect(screen.getAllByTestId("compare-proofs")).toHaveLength(1);
    fireEvent.click(compare);
    const dialog = await screen.findByTestId("proof-compare");
    expect(within(dialog).getByRole("heading", { name: "Comparar comprobantes" })).toBeInTheDocument();
    const mine = within(dialog).getByTestId("compare-this");
    expect(mine).toHaveTextContent("Esta compra");
    expect(mine).toHaveTextContent("RF-7K3M9Q2X");
    expect(mine).toHaveTextContent("Ana Pérez");
    expect(within(mine).getByRole("img")).toHaveAttribute("src", PROOF);
    const other = await within(dialog).findByTestId("compare-other");
    expect(other).toHaveTextContent("Compra #7");
    expect(other).toHaveTextContent("RF-OTRA0007");
    expect(other).toHaveTextContent("Luis Otro");
    expect(within(other).getByRole("img")).toHaveAttribute("src", "/api/proofs/other.png");
    purchases[7] = { ...purchases[7]!, paymentProof: PROOF };
  });

  it("says the check is running, reads it again every 3 s, then shows what it found", async () => {
    const asked = stubApi({
      41: [
        { status: "pending", signals: [] },
        { status: "done", light: "amber", checkedAt: "2026-11-20T12:00:00Z", text: null, signals: [{ kind: "noTextReader" }] },
      ],
    });
    open();
    expect(await screen.findByTestId("proof-check-pending")).toHaveTextContent("Revisando el comprobante…");
    const light = await screen.findByTestId("proof-check-light", {}, { timeout: 6000 });
    expect(light).toHaveTextContent("Ámbar");
    expect(light).toHaveTextContent("Algo no se pudo leer o es inusual");
    // How to turn reading on, in words an operator acts on.
    expect(screen.getByTestId("proof-check-signals")).toHaveTextContent(
      "Este servidor no puede leer comprobantes: le falta Tesseract o poppler (o RIFA_OCR=off apagó la lectura). Quien administra el servidor debe instalar tesseract-ocr, tesseract-ocr-spa y poppler-utils (la imagen de Docker de Rifa ya los trae) y reiniciar Rifa. Mientras tanto, revisa el comprobante tú mismo.",
    );
    expect(screen.queryByTestId("proof-check-text")).toBeNull();
    expect(asked.filter((u) => u.endsWith("/41/proof-check")).length).toBe(2);
  }, 10_000);

  it("says why a check failed", async () => {
    stubApi({ 41: [{ status: "failed", reason: "the object store is down", signals: [] }] });
    open();
    const failed = await screen.findByTestId("proof-check-failed");
    expect(failed).toHaveTextContent("No se pudo revisar el comprobante");
    expect(failed).toHaveTextContent("Motivo: the object store is down");
  });

  it("words every signal in English", async () => {
    stubApi({
      41: [
        {
          status: "done",
          light: "green",
          checkedAt: "2026-11-20T12:00:00Z",
          text: "Amount $10.00",
          signals: [
            { kind: "nearReuse", other: 9, distance: 4 },
            { kind: "referenceReused", other: 12 },
            { kind: "amountMatches", read: { value: "10.00", currency: "USD" } },
            { kind: "amountUnread" },
            { kind: "referenceRead", reference: "ZL123" },
            { kind: "referenceDiffers", read: "999", given: "111" },
            { kind: "referenceUnread" },
            { kind: "unreadable" },
            { kind: "datedBeforePurchase", takenAt: "2026-11-01T09:30:00Z" },
            { kind: "noTextReader" },
            { kind: "pageTooLarge", widthMm: 5080, heightMm: 5080 },
            { kind: "readTooSlow", seconds: 15 },
            { kind: "readerFailed" },
          ],
        },
      ],
    });
    open("en");
    const light = await screen.findByTestId("proof-check-light");
    expect(light).toHaveTextContent("Green");
    expect(light).toHaveTextContent("Amount and reference match, nothing reused or edited");
    expect(screen.getByTestId("proof-check-expected").textContent).toBe("Bs\u00a0365.00");
    const lines = within(screen.getByTestId("proof-check-signals")).getAllByRole("listitem").map((li) => within(li).getByTestId("signal-text").textContent);
    expect(lines).toEqual([
      "The same picture (saved again) is attached to purchase #9",
      "This proof's reference already appears in purchase #12",
      "Amount read US$\u00a010.00: it matches",
      "The amount could not be read",
      "Reference read ZL123 (the buyer typed none)",
      "Reference read 999; the buyer typed 111",
      "The reference could not be read",
      "No text was found on the proof",
      `Dated before the purchase: ${formatDateTime("2026-11-01T09:30:00Z", "en")}`,
      "This server cannot read proofs: Tesseract or poppler is missing (or RIFA_OCR=off turned reading off). Whoever runs the server should install tesseract-ocr, tesseract-ocr-spa and poppler-utils (Rifa's Docker image has them) and restart Rifa. Until then, read the proof yourself.",
      "Not read: its page is 5.08 × 5.08 m, larger than any receipt",
      "Not read: reading it took more than 15 s",
      "Not read: the reader failed on this file (damaged, or too heavy)",
    ]);
    expect(screen.getByRole("heading", { name: "Proof check" })).toBeInTheDocument();
    expect(screen.getByText("Payment reference")).toBeInTheDocument();
  });

  it("asks nothing of a purchase without a proof", async () => {
    purchases[42] = adminPurchaseFixture({ id: 42, paymentProof: null });
    const asked = stubApi({});
    render(
      <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
        <Intl>
          <PurchaseDetailDialog purchaseId={42} ticketWidth={() => 4} onClose={vi.fn()} onDecide={vi.fn()} onReopen={vi.fn()} />
        </Intl>
      </SWRConfig>,
    );
    await screen.findByText("El cliente no subió comprobante.");
    expect(screen.queryByTestId("proof-check")).toBeNull();
    expect(asked.some((u) => u.includes("proof-check"))).toBe(false);
  });
});
