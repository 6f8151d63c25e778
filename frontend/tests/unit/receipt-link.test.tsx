// After a purchase the receipt gives the buyer's private link ('Sigue tu compra', issue 14).
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ReceiptDialog } from "@/components/raffle/receipt-dialog";
import { buyerPageUrl } from "@/components/raffle/buyer-link";
import type { PurchaseResponse } from "@/lib/api/types";
import { Intl } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  toast.success.mockReset();
  toast.error.mockReset();
});

function receipt(overrides: Partial<PurchaseResponse> = {}): PurchaseResponse {
  return {
    purchase: {
      id: 12,
      reference: "RF-7K3M9Q2X",
      raffleId: 1,
      raffleTitle: "Moto",
      ticketNumbers: [7],
      ticketLabels: ["0007"],
      customerName: "Ana Pérez",
      customerEmail: "ana@example.com",
      paymentMethod: "Zelle",
      totalAmount: "5.00",
      discountApplied: "0",
      status: "pending",
      createdAt: "2026-11-20T12:00:00.000Z",
      convertedTotal: null,
    },
    purchaseToken: "k3y",
    buyerPagePath: "/compra/12#k3y",
    quote: { ticketCount: 1, basePrice: "5.00", subtotal: "5.00", discount: "0", discountPercentage: "0", meetsMinimum: true, total: "5.00", appliedDiscount: null },
    testMode: false,
    ticketNumbers: [7],
    totalAmount: "5.00",
    ...overrides,
  };
}

const show = (r: PurchaseResponse, locale: "es" | "en" = "es") =>
  render(
    <Intl locale={locale}>
      <ReceiptDialog receipt={r} onClose={() => {}} />
    </Intl>,
  );

describe("the receipt's private link", () => {
  it("builds the full address on this site from the path", () => {
    expect(buyerPageUrl("/compra/12#k3y", "https://rifa.example")).toBe("https://rifa.example/compra/12#k3y");
  });

  it("shows 'Sigue tu compra' with the full link and says to keep it", () => {
    show(receipt());
    const link = screen.getByTestId("buyer-link");
    expect(link).toHaveTextContent("Sigue tu compra");
    expect(link).toHaveTextContent("Guarda este enlace privado");
    expect(screen.getByLabelText("Enlace privado de tu compra")).toHaveValue(`${window.location.origin}/compra/12#k3y`);
    expect(screen.getByRole("link", { name: "Abrir" })).toHaveAttribute("href", `${window.location.origin}/compra/12#k3y`);
  });

  it("copies the link", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    show(receipt(), "en");
    expect(screen.getByTestId("buyer-link")).toHaveTextContent("Follow your purchase");
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/compra/12#k3y`));
    expect(toast.success).toHaveBeenCalledWith("Link copied");
    expect(screen.getByRole("button", { name: "Link copied" })).toBeInTheDocument();
  });

  it("says how to copy by hand when the clipboard refuses", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText: vi.fn(async () => Promise.reject(new Error("denied"))) } });
    show(receipt());
    fireEvent.click(screen.getByRole("button", { name: "Copiar enlace" }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("No se pudo copiar: selecciona el enlace y cópialo a mano."));
  });

  it("has no link for an admin's test purchase or an answer without one", () => {
    const { unmount } = show(receipt({ testMode: true, buyerPagePath: null, purchaseToken: null }));
    expect(screen.queryByTestId("buyer-link")).toBeNull();
    unmount();
    show(receipt({ buyerPagePath: null }));
    expect(screen.queryByTestId("buyer-link")).toBeNull();
  });
});
