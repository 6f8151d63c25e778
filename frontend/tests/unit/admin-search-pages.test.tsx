// Issue 20 in the panel: the next page is asked from the page shown (its first purchase as the
// anchor), and a search the server stopped counting says "more than" instead of totals.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import type { PurchasePage } from "@/lib/api/types";
import { PurchasesPanel } from "@/components/admin/purchases-panel";
import { adminPurchaseFixture } from "./fixtures";
import { Intl } from "./intl";

const asked: URLSearchParams[] = [];
let answer: (query: URLSearchParams) => PurchasePage;
vi.mock("@/lib/swr/use-purchases", () => ({
  usePurchasePage: (query: string) => {
    const params = new URLSearchParams(query);
    asked.push(params);
    return { data: answer(params), error: undefined, isLoading: false, isValidating: false, mutate: vi.fn() };
  },
  usePurchase: () => ({ data: undefined, error: undefined }),
}));
vi.mock("@/lib/swr/use-raffles", () => ({ useAdminRaffles: () => ({ data: [] }) }));
vi.mock("@/lib/swr/use-stats", () => ({ useStats: () => ({ data: undefined }) }));

/** Page `page` of a long search: ten purchases whose ids say which page they are on. */
function pageOf(page: number, over: Partial<PurchasePage> = {}): PurchasePage {
  return {
    items: Array.from({ length: 10 }, (_, i) => adminPurchaseFixture({ id: page * 100 + i, reference: `RF-${page}-${i}` })),
    total: 1_000_000,
    page,
    pageSize: 10,
    totalPages: 100_000,
    totalCapped: false,
    summary: { ticketsSold: 3, totalRevenue: "30.00", pendingPurchases: 1 },
    ...over,
  };
}

describe("the purchase search's pages", () => {
  it("asks for the next page from the first purchase of the page shown", () => {
    answer = (q) => pageOf(Number(q.get("page")));
    render(
      <Intl>
        <PurchasesPanel mode="all" reports />
      </Intl>,
    );
    expect(asked.at(-1)?.has("anchorId")).toBe(false);

    fireEvent.click(screen.getByRole("button", { name: "Página siguiente" }));
    const second = asked.at(-1)!;
    fireEvent.click(screen.getByRole("button", { name: "Página siguiente" }));
    const third = asked.at(-1)!;

    expect(Object.fromEntries(second)).toMatchObject({ page: "2", anchorId: "100", anchorPage: "1" });
    expect(Object.fromEntries(third)).toMatchObject({ page: "3", anchorId: "200", anchorPage: "2" });
  });

  it("says 'more than' and shows no totals when the server stopped counting", () => {
    answer = (q) => pageOf(Number(q.get("page")), { total: 10_000, totalPages: 1_000, totalCapped: true, summary: null });
    render(
      <Intl>
        <PurchasesPanel mode="all" reports />
      </Intl>,
    );

    expect(screen.getByTestId("all-showing")).toHaveTextContent("Mostrando 1-10 de más de 10.000 compras");
    expect(screen.getByTestId("all-capped")).toHaveTextContent("Más de 10.000 compras coinciden");
    for (const card of ["all-tickets", "all-revenue", "all-pending"]) {
      expect(within(screen.getByTestId(card)).getByText("—")).toBeInTheDocument();
    }
  });
});
