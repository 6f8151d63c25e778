// Approving a purchase without a payment proof (issue 31, point 1): the confirmation says the
// proof is missing and asks a second time; nothing is sent before the second answer. A purchase
// with a proof, or a rejection, is still one confirmation. The API is stubbed at fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { swrConfig } from "@/lib/api/fetcher";
import type { AdminPurchase } from "@/lib/api/types";
import { adminPurchaseFixture } from "./fixtures";
import { Intl, storeAdminSession } from "./intl";

vi.mock("@/lib/notify", () => ({ notify: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { DecisionDialog } = await import("@/components/admin/decision-dialog");

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** PUT /api/admin/purchases/{id}/status answers the purchase as decided; every body is kept. */
function stubDecision() {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "PUT") {
        const body = JSON.parse(String(init.body)) as { status: string };
        sent.push({ url, body });
        return new Response(JSON.stringify(adminPurchaseFixture({ status: body.status })));
      }
      return new Response("[]");
    }),
  );
  return sent;
}

function show(purchase: AdminPurchase, status: "approved" | "rejected", locale: "es" | "en" = "es") {
  const onDone = vi.fn();
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <DecisionDialog decision={{ purchase, status }} onClose={vi.fn()} onDone={onDone} />
      </Intl>
    </SWRConfig>,
  );
  return { dialog: screen.getByTestId("decision-dialog"), onDone };
}

const WITHOUT_PROOF = adminPurchaseFixture({ paymentProof: null });
const WITH_PROOF = adminPurchaseFixture({ paymentProof: "/api/proofs/pago.png" });

describe("approving a purchase without a payment proof", () => {
  it("says the proof is missing, asks again, and sends only after the second answer", async () => {
    const sent = stubDecision();
    const { dialog, onDone } = show(WITHOUT_PROOF, "approved");
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Esta compra no tiene comprobante de pago.");

    fireEvent.click(within(dialog).getByRole("button", { name: "Sí, aprobar" }));
    const again = await within(dialog).findByRole("heading", { name: "¿Aprobar sin comprobante?" });
    expect(again).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Vas a aprobar la compra RF-7K3M9Q2X de Ana Pérez sin comprobante de pago");
    expect(sent).toEqual([]);
    // The safe answer holds the focus: a reflex Enter goes back.
    expect(within(dialog).getByRole("button", { name: "Volver" })).toHaveFocus();

    fireEvent.click(within(dialog).getByRole("button", { name: "Sí, aprobar sin comprobante" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent).toEqual([{ url: "/api/admin/purchases/41/status", body: { status: "approved", adminNotes: null } }]);
  });

  it("goes back to the first question without sending, and keeps the notes typed", async () => {
    const sent = stubDecision();
    const { dialog, onDone } = show(WITHOUT_PROOF, "approved", "en");
    expect(within(dialog).getByRole("alert")).toHaveTextContent("This purchase has no payment proof.");
    fireEvent.change(within(dialog).getByRole("textbox"), { target: { value: "Paid in cash at the office" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Yes, approve" }));
    await within(dialog).findByRole("heading", { name: "Approve without a proof?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Back" }));
    await within(dialog).findByRole("heading", { name: "Approve this purchase?" });
    expect(sent).toEqual([]);

    fireEvent.click(within(dialog).getByRole("button", { name: "Yes, approve" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Yes, approve without a proof" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent).toEqual([{ url: "/api/admin/purchases/41/status", body: { status: "approved", adminNotes: "Paid in cash at the office" } }]);
  });

  it("approves a purchase with a proof at the first answer, with no warning", async () => {
    const sent = stubDecision();
    const { dialog, onDone } = show(WITH_PROOF, "approved");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Sí, aprobar" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent).toHaveLength(1);
  });

  it("rejects a purchase without a proof at the first answer: the warning is about approving", async () => {
    const sent = stubDecision();
    const { dialog, onDone } = show(WITHOUT_PROOF, "rejected");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    fireEvent.change(within(dialog).getByRole("textbox"), { target: { value: "No llegó el pago" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Sí, rechazar" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent).toEqual([{ url: "/api/admin/purchases/41/status", body: { status: "rejected", adminNotes: "No llegó el pago" } }]);
  });
});
