import { describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { HomeRaffles } from "@/components/home/home-raffles";
import { PaymentMethodsSection } from "@/components/home/payment-methods-section";
import type { PaymentMethod, Raffle } from "@/lib/api/types";
import { Intl } from "./intl";

const raffle = (id: number, sold = 9, max = 999): Raffle => ({
  id,
  title: `Sorteo ${id}`,
  description: "Premio",
  image: "/images/raffle-default.jpg",
  price: "5.00",
  status: "available",
  active: true,
  maxTickets: max,
  ticketsSold: sold,
  ticketsAvailable: max - sold,
  minTicketsPerPurchase: 1,
  maxTicketsPerPurchase: 20,
  purchaseLimits: { min: 1, max: 20 },
  drawDate: "2026-12-24T23:59:59.999Z",
  endDate: null,
  createdAt: "2026-11-01T00:00:00.000Z",
  holdMinutes: 30,
  salesCloseHoursBeforeDraw: 0,
  salesCloseAt: "2026-12-24T23:59:59.999Z",
  salesOpen: true,
  serverTime: "2026-11-20T12:00:00.000Z",
});

const method = (id: number, active = true, details: Record<string, string> = { email: "pagos@rifa.app" }): PaymentMethod => ({
  id,
  name: `Zelle ${id}`,
  type: "zelle",
  active,
  details,
  exchangeRateId: null,
  exchangeRate: null,
  referenceRequired: false,
  referenceMinLength: 0,
});

describe("home raffles", () => {
  it("shows the upcoming-raffles message when there are none", () => {
    render(<Intl><HomeRaffles raffles={[]} /></Intl>);
    expect(screen.getByTestId("home-raffles-empty")).toHaveTextContent("Próximos sorteos");
    expect(screen.queryByRole("link", { name: /Ver todos/ })).toBeNull();
  });

  it("says the raffles could not be loaded, in both languages, when the API did not answer", () => {
    const { unmount } = render(<Intl><HomeRaffles raffles={null} /></Intl>);
    expect(screen.getByRole("alert")).toHaveTextContent("No pudimos cargar los sorteos");
    expect(screen.queryByTestId("home-raffles-empty")).toBeNull();
    expect(screen.getByRole("link", { name: "Reintentar" })).toHaveAttribute("href", "/#sorteos");
    unmount();
    render(<Intl locale="en"><HomeRaffles raffles={null} /></Intl>);
    expect(screen.getByRole("alert")).toHaveTextContent("We could not load the raffles");
    expect(screen.getByRole("link", { name: "Try again" })).toBeInTheDocument();
  });

  it("shows three cards and no see-all button with exactly three raffles", () => {
    render(<Intl><HomeRaffles raffles={[1, 2, 3].map((id) => raffle(id))} /></Intl>);
    expect(screen.getAllByRole("article")).toHaveLength(3);
    expect(screen.queryByRole("link", { name: /Ver todos/ })).toBeNull();
  });

  it("shows the first three and a see-all button with the total above three", () => {
    render(<Intl><HomeRaffles raffles={[1, 2, 3, 4, 5].map((id) => raffle(id))} /></Intl>);
    const cards = screen.getAllByRole("article");
    expect(cards.map((c) => within(c).getByRole("heading").textContent)).toEqual(["Sorteo 1", "Sorteo 2", "Sorteo 3"]);
    expect(screen.getByRole("link", { name: "Ver todos los sorteos (5)" })).toHaveAttribute("href", "/sorteos");
  });

  it("formats counts and the taken share in the page's language, named for what they count", () => {
    // The raffle's ticketsSold counts numbers held by pending purchases too (issue 31).
    const { unmount } = render(<Intl><HomeRaffles raffles={[raffle(1, 1234, 99_999)]} /></Intl>);
    const card = screen.getByRole("article");
    expect(card).toHaveTextContent("1234 / 99.999 apartados o vendidos");
    expect(card).toHaveTextContent("1,2%");
    expect(within(card).getByRole("progressbar", { name: "Boletos apartados o vendidos" })).toBeInTheDocument();
    unmount();
    render(<Intl locale="en"><HomeRaffles raffles={[raffle(1, 1234, 99_999)]} /></Intl>);
    expect(screen.getByRole("article")).toHaveTextContent("1,234 / 99,999 held or sold");
    expect(screen.getByRole("article")).toHaveTextContent("1.2%");
    expect(screen.getByRole("progressbar", { name: "Tickets held or sold" })).toBeInTheDocument();
  });
});

describe("home payment methods", () => {
  it("shows the in-configuration message and the premium-support button without active methods", () => {
    render(<Intl><PaymentMethodsSection methods={[method(1, false)]} supportUrl="https://wa.me/584140000000" /></Intl>);
    expect(screen.getByTestId("payments-empty")).toHaveTextContent("Métodos de pago en configuración");
    expect(screen.getByRole("link", { name: "Contactar soporte premium" })).toHaveAttribute("href", expect.stringContaining("wa.me"));
    expect(screen.queryByRole("listitem")).toBeNull();
  });

  it("shows one card per active method, and the contact message for one without details", () => {
    render(<Intl><PaymentMethodsSection methods={[method(1), method(2, false), method(3, true, {})]} supportUrl="https://wa.me/584140000000" /></Intl>);
    const cards = screen.getAllByRole("listitem");
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent("Zelle 1");
    expect(cards[0]).toHaveTextContent("Transferencia Zelle");
    expect(cards[0]).toHaveTextContent("pagos@rifa.app");
    expect(cards[1]).toHaveTextContent("Contáctanos para recibir los datos de pago.");
    expect(screen.queryByTestId("payments-empty")).toBeNull();
  });
});
