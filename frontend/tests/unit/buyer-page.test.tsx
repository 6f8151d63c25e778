// The buyer's own page (/compra/{id}#{key}, issue 14): every status, the hold's countdown on the
// server's clock, the receipt and invoice links, re-sending the proof, and a link that is wrong.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { BuyerPurchase } from "@/components/buyer/buyer-purchase";
import type { BuyerPurchaseView } from "@/lib/api/types";
import { AFTER_DEADLINE_MS } from "@/lib/countdown";
import { formatDateTime } from "@/lib/format";
import { buyerViewFixture } from "./fixtures";
import { Intl } from "./intl";

const toastError = vi.fn();
vi.mock("@/lib/notify", () => ({
  notify: { error: (...args: unknown[]) => toastError(...args), success: vi.fn(), warning: vi.fn(), info: vi.fn() },
}));

const NOW = new Date("2026-11-20T12:00:00Z").getTime();
const TOKEN = "k3y-0f-purchase";
const nb = (s: string | null | undefined) => (s ?? "").replace(/\u00a0/g, " ");

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };
let calls: Call[];

/**
 * The API as the page meets it: `views` answer GET /buyer in turn (the last one repeats), and
 * `answer` the proof upload's three steps.
 */
function stubApi(views: (BuyerPurchaseView | Response)[], answer: (call: Call) => Response = () => new Response("{}")) {
  calls = [];
  let read = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? "GET", headers: (init.headers ?? {}) as Record<string, string>, body: init.body };
      calls.push(call);
      if (url.endsWith("/buyer")) {
        const next = views[Math.min(read++, views.length - 1)]!;
        return next instanceof Response ? next.clone() : new Response(JSON.stringify(next), { status: 200 });
      }
      return answer(call);
    }),
  );
}

const reads = () => calls.filter((c) => c.url.endsWith("/buyer"));

function page({ id = 12 as number | null, hash = `#${TOKEN}`, locale = "es" as "es" | "en", contact = { email: "hola@rifa.app", whatsappUrl: "https://wa.me/584141234567" } } = {}) {
  window.location.hash = hash;
  return render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <Intl locale={locale}>
        <BuyerPurchase purchaseId={id} contact={contact} />
      </Intl>
    </SWRConfig>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.location.hash = "";
  toastError.mockReset();
});

describe("a link that leads nowhere", () => {
  it("says the purchase was not found when the link has no key, without asking the API", async () => {
    stubApi([buyerViewFixture()]);
    page({ hash: "" });
    expect(await screen.findByTestId("buyer-not-found")).toHaveTextContent("No encontramos esta compra");
    expect(screen.getByRole("link", { name: "Verificar mis boletos" })).toHaveAttribute("href", "/#verificar");
    expect(calls).toHaveLength(0);
  });

  it("says so when the API does not know the purchase or the key is wrong", async () => {
    stubApi([new Response('{"code":"purchase_not_found","message":"Compra no encontrada"}', { status: 404 })]);
    page({ hash: "#wrong-key" });
    expect(await screen.findByTestId("buyer-not-found")).toBeInTheDocument();
    expect(reads()[0]?.headers["X-Purchase-Token"]).toBe("wrong-key");
  });

  it("says so for an id that is not a number", async () => {
    stubApi([buyerViewFixture()]);
    page({ id: null });
    expect(await screen.findByTestId("buyer-not-found")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("says the service is not answering, with a retry that reads again", async () => {
    stubApi([new Response("", { status: 502 }), buyerViewFixture()]);
    page();
    const failed = await screen.findByTestId("buyer-load-failed");
    expect(failed).toHaveTextContent("No pudimos cargar tu compra");
    fireEvent.click(within(failed).getByRole("button", { name: "Reintentar" }));
    expect(await screen.findByTestId("buyer-purchase")).toBeInTheDocument();
  });
});

describe("a pending purchase without a proof", () => {
  it("reads the view with the key in a header and shows the raffle, the numbers and the total", async () => {
    stubApi([buyerViewFixture()]);
    page();
    await screen.findByTestId("buyer-purchase");
    expect(reads()[0]?.url).toBe("/api/purchases/12/buyer");
    expect(reads()[0]?.headers["X-Purchase-Token"]).toBe(TOKEN);
    expect(screen.getByTestId("buyer-raffle-title")).toHaveTextContent("Moto 0 km");
    expect(screen.getByTestId("buyer-reference")).toHaveTextContent("Referencia RF-7K3M9Q2X");
    expect(within(screen.getByTestId("buyer-numbers")).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["0007", "0042"]);
    expect(nb(screen.getByTestId("buyer-total").textContent)).toBe("US$ 10,00");
    expect(screen.queryByTestId("buyer-converted")).toBeNull();
  });

  it("links the PDF receipt and the printable one with the key", async () => {
    stubApi([buyerViewFixture()]);
    page();
    expect(await screen.findByTestId("buyer-receipt-link")).toHaveAttribute("href", `/api/purchases/12/invoice?token=${TOKEN}&format=pdf`);
    expect(screen.getByTestId("buyer-invoice-link")).toHaveAttribute("href", `/api/purchases/12/invoice?token=${TOKEN}&format=html`);
    expect(screen.getByTestId("buyer-receipt-link")).toHaveTextContent("Descargar recibo (PDF)");
    // A receipt ('Recibo de compra', the page's own title), not a tax invoice (issue 31).
    expect(screen.getByTestId("buyer-invoice-link")).toHaveTextContent("Ver recibo imprimible");
    expect(screen.getByTestId("buyer-invoice-link")).not.toHaveTextContent(/factura/i);
  });

  it("calls the printable one a receipt in English too", async () => {
    stubApi([buyerViewFixture()]);
    page({ locale: "en" });
    expect(await screen.findByTestId("buyer-invoice-link")).toHaveTextContent("View printable receipt");
  });

  it("says the numbers are held until the deadline, with a countdown on the server's clock", async () => {
    // The server is 5 minutes ahead of this browser: 15 minutes are left, not 20.
    const view = buyerViewFixture({ serverTime: new Date(NOW + 5 * 60_000).toISOString() });
    stubApi([view]);
    page();
    const status = await screen.findByTestId("buyer-status");
    expect(status).toHaveAttribute("data-state", "awaiting");
    expect(status).toHaveTextContent("Esperando tu comprobante");
    expect(status).toHaveTextContent(`Tus números están apartados hasta el ${formatDateTime(view.purchase.holdExpiresAt!, "es")}.`);
    expect(screen.getByTestId("buyer-status-badge")).toHaveTextContent("Pendiente");
    expect(screen.getByRole("timer")).toHaveTextContent("00Horas15Min00Seg");
    expect(screen.getByTestId("buyer-proof-upload")).toHaveTextContent("Envía tu comprobante de pago");
    expect(screen.getByTestId("buyer-history")).toHaveTextContent("Compra recibida");
  });

  it("shows the converted total at the rate locked when buying", async () => {
    stubApi([buyerViewFixture({ purchase: { convertedTotal: { currency: "VES", rate: "36.5", amount: "365.00" } } })]);
    page();
    const converted = await screen.findByTestId("buyer-converted");
    expect(nb(converted.textContent)).toContain("Bs 365,00");
    expect(nb(converted.textContent)).toContain("Tasa: 1 USD = 36,5000 VES");
    expect(screen.getByText("Total a pagar en VES")).toBeInTheDocument();
  });

  it("says when the time is up and reads the purchase again once the sweep has expired it", async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
    const pending = buyerViewFixture({ purchase: { holdExpiresAt: new Date(NOW + 2000).toISOString() } });
    const expired = buyerViewFixture({
      purchase: { status: "expired", holdExpiresAt: null, canUploadProof: false },
      history: [...pending.history, { kind: "expired", at: new Date(NOW + 2000).toISOString(), note: null }],
    });
    stubApi([pending, expired]);
    page();
    await screen.findByRole("timer");
    act(() => vi.advanceTimersByTime(3000));
    expect(await screen.findByTestId("hold-over")).toHaveTextContent("El plazo terminó.");
    expect(screen.queryByTestId("buyer-proof-upload")).toBeNull();
    expect(reads()).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(AFTER_DEADLINE_MS));
    await waitFor(() => expect(screen.getByTestId("buyer-status")).toHaveAttribute("data-state", "expired"));
    expect(reads()).toHaveLength(2);
  });
});

describe("sending the proof from the page", () => {
  const file = (name: string, type: string, bytes = 3) => new File([new Uint8Array(bytes)], name, { type });
  const choose = (f: File) => fireEvent.change(screen.getByTestId("proof-retry-input"), { target: { files: [f] } });
  const upload = (call: Call) => {
    if (call.url === "/api/objects/upload") return new Response('{"uploadURL":"/uploads/p12.png","uploadHeaders":{"Content-Type":"image/png"}}');
    return new Response('{"attached":true}');
  };

  it("says why the last proof was refused, sends a new one by the same three steps and shows the review", async () => {
    const refused = buyerViewFixture({ purchase: { proofProblem: "too_large" } });
    const review = buyerViewFixture({
      purchase: { proofAttached: true, proofProblem: null, holdExpiresAt: null, canUploadProof: false },
      history: [...refused.history, { kind: "proof_attached", at: new Date(NOW).toISOString(), note: null }],
    });
    stubApi([refused, review], upload);
    page();
    const section = await screen.findByTestId("buyer-proof-upload");
    expect(section).toHaveTextContent("Envía tu comprobante de nuevo");
    expect(screen.getByTestId("proof-failed-reason")).toHaveTextContent("Tu comprobante anterior pesaba más de 5 MB y no se aceptó.");
    choose(file("pago.png", "image/png"));
    fireEvent.click(screen.getByTestId("proof-retry-send"));

    expect(await screen.findByTestId("buyer-proof-sent")).toHaveTextContent("Comprobante recibido");
    await waitFor(() => expect(screen.getByTestId("buyer-status")).toHaveAttribute("data-state", "review"));
    const steps = calls.filter((c) => !c.url.endsWith("/buyer")).map((c) => `${c.method} ${c.url}`);
    expect(steps).toEqual(["POST /api/objects/upload", "PUT /uploads/p12.png", "PUT /api/purchases/12/payment-proof"]);
    expect(JSON.parse(String(calls.find((c) => c.url === "/api/objects/upload")?.body))).toMatchObject({ purchaseId: 12, purchaseToken: TOKEN, contentType: "image/png" });
    expect(screen.getByTestId("buyer-status")).toHaveTextContent("Pago en revisión");
    expect(screen.getByTestId("buyer-status-badge")).toHaveTextContent("En revisión");
    expect(screen.queryByTestId("buyer-proof-upload")).toBeNull();
    expect(screen.queryByRole("timer")).toBeNull();
    expect(screen.getByTestId("buyer-history")).toHaveTextContent("Comprobante recibido");
  });

  it("checks the file first: a file over 5 MB is refused before any upload", async () => {
    stubApi([buyerViewFixture()], upload);
    page();
    await screen.findByTestId("buyer-proof-upload");
    choose(file("enorme.png", "image/png", 5 * 1024 * 1024 + 1));
    fireEvent.click(screen.getByTestId("proof-retry-send"));
    expect(await screen.findByTestId("proof-failed-reason")).toHaveTextContent("Archivo muy grande - El archivo debe ser menor a 5MB");
    expect(calls.filter((c) => !c.url.endsWith("/buyer"))).toHaveLength(0);
  });

  it("shows the server's message when the proof arrives after the deadline, and the expiry", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const expired = buyerViewFixture({ purchase: { status: "expired", holdExpiresAt: null, canUploadProof: false } });
    stubApi([buyerViewFixture(), expired], (call) =>
      call.url.endsWith("/payment-proof")
        ? new Response('{"code":"hold_expired","message":"El plazo para enviar el comprobante terminó a las 12:20"}', { status: 409 })
        : upload(call),
    );
    page();
    await screen.findByTestId("buyer-proof-upload");
    choose(file("pago.pdf", "application/pdf"));
    fireEvent.click(screen.getByTestId("proof-retry-send"));
    const late = await screen.findByTestId("late-proof");
    expect(late).toHaveTextContent("Tu comprobante llegó tarde");
    expect(late).toHaveTextContent("El plazo para enviar el comprobante terminó a las 12:20");
    await waitFor(() => expect(screen.getByTestId("buyer-status")).toHaveAttribute("data-state", "expired"));
    expect(screen.getByTestId("late-proof")).toBeInTheDocument();
    expect(screen.queryByTestId("buyer-proof-upload")).toBeNull();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe("the other statuses", () => {
  it("says a purchase with its proof is under review, with no countdown and no upload", async () => {
    stubApi([buyerViewFixture({ purchase: { proofAttached: true, holdExpiresAt: null, canUploadProof: false } })]);
    page();
    const status = await screen.findByTestId("buyer-status");
    expect(status).toHaveTextContent("Pago en revisión");
    expect(status).toHaveTextContent("Te escribiremos a ana@example.com cuando el organizador lo revise.");
    expect(screen.queryByRole("timer")).toBeNull();
    expect(screen.queryByTestId("buyer-proof-upload")).toBeNull();
  });

  it("celebrates an approved purchase and lists its history", async () => {
    stubApi([
      buyerViewFixture({
        purchase: { status: "approved", proofAttached: true, holdExpiresAt: null, canUploadProof: false },
        history: [
          { kind: "received", at: "2026-11-20T11:50:00.000Z", note: null },
          { kind: "proof_attached", at: "2026-11-20T11:52:00.000Z", note: null },
          { kind: "approved", at: "2026-11-20T11:58:00.000Z", note: "¡Suerte!" },
        ],
      }),
    ]);
    page();
    const status = await screen.findByTestId("buyer-status");
    expect(status).toHaveTextContent("¡Compra aprobada!");
    expect(screen.getByTestId("buyer-status-badge")).toHaveTextContent("Aprobada");
    const history = within(screen.getByTestId("buyer-history")).getAllByRole("listitem");
    expect(history.map((li) => li.getAttribute("data-kind"))).toEqual(["received", "proof_attached", "approved"]);
    expect(history[2]).toHaveTextContent("Pago aprobado");
    expect(history[2]).toHaveTextContent("Nota del organizador: ¡Suerte!");
  });

  it("gives the admin's note on a rejected purchase", async () => {
    stubApi([
      buyerViewFixture({
        purchase: { status: "rejected", proofAttached: true, holdExpiresAt: null, canUploadProof: false, adminNotes: "Referencia de pago no encontrada" },
        history: [
          { kind: "received", at: "2026-11-20T11:50:00.000Z", note: null },
          { kind: "rejected", at: "2026-11-20T11:58:00.000Z", note: "Referencia de pago no encontrada" },
        ],
      }),
    ]);
    page();
    const status = await screen.findByTestId("buyer-status");
    expect(status).toHaveTextContent("Compra rechazada");
    expect(screen.getByTestId("buyer-rejection-note")).toHaveTextContent("Motivo: Referencia de pago no encontrada");
    expect(screen.getByTestId("buyer-history")).toHaveTextContent("Pago rechazado");
  });

  it("takes the rejection's note from the history when the purchase carries none", async () => {
    stubApi([
      buyerViewFixture({
        purchase: { status: "rejected", holdExpiresAt: null, canUploadProof: false, adminNotes: null },
        history: [{ kind: "rejected", at: "2026-11-20T11:58:00.000Z", note: "Pago duplicado" }],
      }),
    ]);
    page();
    expect(await screen.findByTestId("buyer-rejection-note")).toHaveTextContent("Motivo: Pago duplicado");
  });

  it("explains an expired purchase: the numbers went back on sale, and whom to contact if they paid", async () => {
    stubApi([
      buyerViewFixture({
        purchase: { status: "expired", holdExpiresAt: null, canUploadProof: false },
        history: [
          { kind: "received", at: "2026-11-20T11:20:00.000Z", note: null },
          { kind: "expired", at: "2026-11-20T11:50:00.000Z", note: null },
        ],
      }),
    ]);
    page();
    const status = await screen.findByTestId("buyer-status");
    expect(status).toHaveTextContent("Reserva vencida");
    expect(status).toHaveTextContent("tus números volvieron a estar a la venta. Si ya pagaste, contacta al organizador con tu referencia RF-7K3M9Q2X.");
    expect(screen.getByTestId("buyer-status-badge")).toHaveTextContent("Expirada");
    expect(within(status).getByRole("link", { name: "Escribir al organizador" })).toHaveAttribute("href", "mailto:hola@rifa.app?subject=RF-7K3M9Q2X");
    expect(within(status).getByRole("link", { name: "Escribir por WhatsApp" })).toHaveAttribute("href", "https://wa.me/584141234567");
    expect(screen.getByTestId("buyer-history")).toHaveTextContent("Reserva vencida: los números volvieron a la venta");
    expect(screen.queryByTestId("buyer-proof-upload")).toBeNull();
  });

  it("tells a reopened purchase's story and counts down again", async () => {
    stubApi([
      buyerViewFixture({
        history: [
          { kind: "received", at: "2026-11-20T10:00:00.000Z", note: null },
          { kind: "expired", at: "2026-11-20T10:30:00.000Z", note: null },
          { kind: "reopened", at: "2026-11-20T11:50:00.000Z", note: null },
        ],
      }),
    ]);
    page();
    expect(await screen.findByTestId("buyer-history")).toHaveTextContent("Compra reabierta por el organizador");
    expect(screen.getByRole("timer")).toHaveTextContent("20Min");
  });

  it("speaks English", async () => {
    stubApi([buyerViewFixture({ purchase: { status: "expired", holdExpiresAt: null, canUploadProof: false } })]);
    page({ locale: "en" });
    const status = await screen.findByTestId("buyer-status");
    expect(status).toHaveTextContent("Hold expired");
    expect(status).toHaveTextContent("If you already paid, contact the organiser with your reference RF-7K3M9Q2X.");
    expect(screen.getByTestId("buyer-status-badge")).toHaveTextContent("Expired");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Your purchase");
    expect(screen.getByTestId("buyer-receipt-link")).toHaveTextContent("Download receipt (PDF)");
  });
});
