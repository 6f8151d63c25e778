// The receipt's numbers (issue 31, point 8): the spec's first three and '+N más' stay, and
// 'Ver todos' opens all of them; toasts go to the bottom on a phone, where the receipt dialog
// reaches the top of the screen and a toast there covered its header.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, renderHook, screen, within } from "@testing-library/react";
import { ReceiptDialog } from "@/components/raffle/receipt-dialog";
import { PHONE_QUERY, useToastPosition } from "@/components/ui/sonner";
import type { PurchaseResponse } from "@/lib/api/types";
import { Intl } from "./intl";

vi.mock("@/lib/notify", () => ({ notify: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

afterEach(() => vi.unstubAllGlobals());

function receipt(numbers: number[]): PurchaseResponse {
  const labels = numbers.map((n) => String(n).padStart(4, "0"));
  return {
    purchase: {
      id: 12,
      reference: "RF-7K3M9Q2X",
      raffleId: 1,
      raffleTitle: "Moto",
      ticketNumbers: numbers,
      ticketLabels: labels,
      customerName: "Ana Pérez",
      customerEmail: "ana@example.com",
      paymentMethod: "Zelle",
      totalAmount: "35.00",
      discountApplied: "0",
      status: "pending",
      createdAt: "2026-11-20T12:00:00.000Z",
      convertedTotal: null,
    },
    purchaseToken: "k3y",
    buyerPagePath: "/compra/12#k3y",
    quote: { ticketCount: numbers.length, basePrice: "5.00", subtotal: "35.00", discount: "0", discountPercentage: "0", meetsMinimum: true, total: "35.00", appliedDiscount: null },
    testMode: false,
    ticketNumbers: numbers,
    totalAmount: "35.00",
  };
}

const show = (numbers: number[], locale: "es" | "en" = "es") =>
  render(
    <Intl locale={locale}>
      <ReceiptDialog receipt={receipt(numbers)} onClose={() => {}} />
    </Intl>,
  );

const SEVEN = [3, 17, 42, 99, 120, 512, 998];

describe("the receipt's numbers", () => {
  it("shows the first three and '+N más', and 'Ver todos' opens every number", () => {
    show(SEVEN);
    const dialog = screen.getByTestId("receipt-dialog");
    expect(within(dialog).getAllByTestId("receipt-number").map((n) => n.textContent)).toEqual(["0003", "0017", "0042"]);
    expect(dialog).toHaveTextContent("+4 más");
    expect(within(dialog).queryByRole("list", { name: "Tus 7 números" })).toBeNull();

    const toggle = within(dialog).getByRole("button", { name: "Ver todos (7)" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(toggle);
    const all = within(dialog).getByRole("list", { name: "Tus 7 números" });
    expect(within(all).getAllByRole("listitem").map((n) => n.textContent)).toEqual(["0003", "0017", "0042", "0099", "0120", "0512", "0998"]);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(toggle).toHaveAttribute("aria-controls", all.id);
    expect(toggle).toHaveAccessibleName("Ver menos");

    fireEvent.click(toggle);
    expect(within(dialog).queryByRole("list", { name: "Tus 7 números" })).toBeNull();
  });

  it("offers nothing more when the three are all", () => {
    show([3, 17, 42]);
    expect(screen.queryByRole("button", { name: /Ver todos/ })).toBeNull();
    expect(screen.getByTestId("receipt-dialog")).not.toHaveTextContent("más");
  });

  it("says it in English too", () => {
    show(SEVEN, "en");
    expect(screen.getByTestId("receipt-dialog")).toHaveTextContent("+4 more");
    fireEvent.click(screen.getByRole("button", { name: "See all (7)" }));
    expect(within(screen.getByRole("list", { name: "Your 7 numbers" })).getAllByRole("listitem")).toHaveLength(7);
    expect(screen.getByRole("button", { name: "See fewer" })).toBeInTheDocument();
  });
});

describe("where toasts go", () => {
  const screenOf = (phone: boolean) =>
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === PHONE_QUERY && phone, media: query, addEventListener: () => {}, removeEventListener: () => {} }));

  it("at the bottom on a phone, clear of a dialog's header", () => {
    screenOf(true);
    expect(renderHook(() => useToastPosition()).result.current).toBe("bottom-center");
  });

  it("at the top on a wider screen", () => {
    screenOf(false);
    expect(renderHook(() => useToastPosition()).result.current).toBe("top-center");
  });
});
