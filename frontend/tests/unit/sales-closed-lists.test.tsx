// A raffle whose sales have closed shows as closed in the public cards and the admin's table
// (issue 14), while a raffle on sale keeps its 'Activo' label and call to action.
import { describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { RaffleCard } from "@/components/raffle/raffle-card";
import type { Raffle } from "@/lib/api/types";
import { salesClosed } from "@/lib/sales";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

const listed: { current: Raffle[] } = { current: [] };
vi.mock("@/lib/swr/use-raffles", () => ({
  useAdminRaffles: () => ({ data: listed.current, isLoading: false, error: undefined, mutate: vi.fn() }),
}));
const { RafflesTab } = await import("@/components/admin/raffles-tab");

const NOW = Date.parse("2026-11-20T12:00:00Z");

describe("whether sales are closed", () => {
  it("follows the server's salesOpen for a raffle on sale, and salesCloseAt once it passes", () => {
    expect(salesClosed(raffleFixture({ salesOpen: false }))).toBe(true);
    expect(salesClosed(raffleFixture({ salesOpen: true, salesCloseAt: "2026-11-20T11:59:59Z" }))).toBe(false);
    expect(salesClosed(raffleFixture({ salesOpen: true, salesCloseAt: "2026-11-20T11:59:59Z" }), NOW)).toBe(true);
    expect(salesClosed(raffleFixture({ salesOpen: true, salesCloseAt: "2026-11-20T12:00:01Z" }), NOW)).toBe(false);
    expect(salesClosed(raffleFixture({ salesOpen: true, salesCloseAt: null }), NOW)).toBe(false);
  });

  it("leaves raffles not on sale to their own status", () => {
    expect(salesClosed(raffleFixture({ status: "finished", salesOpen: false }), NOW)).toBe(false);
  });
});

describe("public cards", () => {
  it("label a closed raffle 'Ventas cerradas' instead of 'Activo', with 'Ver sorteo'", () => {
    render(<Intl><RaffleCard raffle={raffleFixture({ salesOpen: false })} showActive /></Intl>);
    expect(screen.getByTestId("raffle-card-closed")).toHaveTextContent("Ventas cerradas");
    expect(screen.queryByText("Activo")).toBeNull();
    expect(screen.getByText("Ver sorteo")).toBeInTheDocument();
    expect(screen.queryByText("Participar ahora")).toBeNull();
  });

  it("keep 'Activo' and 'Participar ahora' while sales are open", () => {
    render(<Intl><RaffleCard raffle={raffleFixture()} showActive /></Intl>);
    expect(screen.getByText("Activo")).toBeInTheDocument();
    expect(screen.getByText("Participar ahora")).toBeInTheDocument();
    expect(screen.queryByTestId("raffle-card-closed")).toBeNull();
  });

  it("say it in English on the home's cards too", () => {
    render(<Intl locale="en"><RaffleCard raffle={raffleFixture({ salesOpen: false })} /></Intl>);
    expect(screen.getByTestId("raffle-card-closed")).toHaveTextContent("Sales closed");
  });
});

describe("the admin's raffles table", () => {
  it("marks a raffle on sale whose sales closed, and says until when sales run", () => {
    listed.current = [
      raffleFixture({ id: 1, title: "Cerrado", salesOpen: false }),
      raffleFixture({ id: 2, title: "Abierto", drawDate: "2026-12-24T23:59:59.999Z", salesCloseHoursBeforeDraw: 4, salesCloseAt: "2026-12-24T19:59:59.999Z" }),
    ];
    render(<Intl><RafflesTab draws /></Intl>);
    const closedRow = screen.getAllByTestId("raffle-row").find((row) => row.dataset.title === "Cerrado")!;
    const openRow = screen.getAllByTestId("raffle-row").find((row) => row.dataset.title === "Abierto")!;
    expect(within(closedRow).getByTestId("raffle-sales-closed")).toHaveTextContent("Ventas cerradas");
    expect(within(closedRow).getByText("Disponible")).toBeInTheDocument();
    expect(within(openRow).queryByTestId("raffle-sales-closed")).toBeNull();
    expect(within(openRow).getByTestId("raffle-sales-until")).toHaveTextContent(/^Ventas hasta /);
    expect(within(closedRow).queryByTestId("raffle-sales-until")).toBeNull();
  });
});
