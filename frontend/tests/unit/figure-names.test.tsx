// Each ticket figure named for what it counts (issue 31, point 7): a raffle's ticketsSold counts
// the numbers of pending and approved purchases (the public page, the raffles tab), the
// dashboard's ticketsSold only approved purchases. Both used to say 'Vendidos'.
import { describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { RaffleOverview } from "@/components/raffle/raffle-overview";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

vi.mock("@/lib/swr/use-stats", () => ({
  useStats: () => ({ data: { ticketsSold: 12, totalRevenue: "60.00", pendingPurchases: 3, activeRaffles: 2 } }),
}));
const { SummaryCards } = await import("@/components/admin/summary-cards");

/** The term (dt) of a figure and its value (dd), read from the raffle page's list. */
const figure = (term: string) => {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent;
};

describe("the raffle page's taken numbers", () => {
  const raffle = raffleFixture({ ticketsSold: 25, ticketsAvailable: 974 });

  it("says the figure holds numbers on hold as well as sold ones", () => {
    render(<Intl><RaffleOverview raffle={raffle} promotions={[]} /></Intl>);
    expect(figure("Apartados o vendidos")).toBe("25");
    expect(screen.queryByText("Vendidos", { selector: "dt" })).toBeNull();
    expect(screen.getByText("25 / 999 apartados o vendidos")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Boletos apartados o vendidos" })).toHaveAttribute("aria-valuenow", "2.5");
  });

  it("in English too", () => {
    render(<Intl locale="en"><RaffleOverview raffle={raffle} promotions={[]} /></Intl>);
    expect(figure("Held or sold")).toBe("25");
    expect(screen.getByText("25 / 999 held or sold")).toBeInTheDocument();
  });
});

describe("the dashboard's sold tickets", () => {
  it("says the card counts approved purchases only", () => {
    render(<Intl><SummaryCards /></Intl>);
    const card = screen.getByTestId("card-tickets");
    expect(within(card).getByText("Boletos vendidos (aprobados)")).toBeInTheDocument();
    expect(card).toHaveTextContent("12");
  });

  it("in English too", () => {
    render(<Intl locale="en"><SummaryCards /></Intl>);
    expect(within(screen.getByTestId("card-tickets")).getByText("Tickets sold (approved)")).toBeInTheDocument();
  });
});
