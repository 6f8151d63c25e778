import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import es from "../../messages/es.json";
import en from "../../messages/en.json";
import { TicketPicker } from "@/components/raffle/ticket-picker";

const toastError = vi.fn();
vi.mock("@/lib/notify", () => ({ notify: { error: (...args: unknown[]) => toastError(...args) } }));

function Harness({ total, min = 1, max = 10, locale = "es", initial = [] as number[] }: { total: number; min?: number; max?: number; locale?: "es" | "en"; initial?: number[] }) {
  const [selected, setSelected] = useState<number[]>(initial);
  const available = new Uint32Array(Array.from({ length: total }, (_, i) => i + 1));
  return (
    <NextIntlClientProvider locale={locale} messages={locale === "es" ? es : en}>
      <TicketPicker available={available} width={Math.max(4, String(total).length)} price="13.00" limits={{ min, max }} selected={selected} onSelectedChange={setSelected} />
    </NextIntlClientProvider>
  );
}

describe("TicketPicker", () => {
  it("renders one page of 64 numbers of a 99,999-number raffle, with paging", () => {
    render(<Harness total={99_999} />);
    expect(screen.getAllByRole("button", { pressed: false }).length).toBe(64);
    expect(screen.getByText("Página 1 de 1563")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Anterior/ })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: /Siguiente/ }));
    expect(screen.getByRole("button", { name: "Número 00065" })).toBeInTheDocument();
  });

  it("searches with the 'encontrados' count", () => {
    render(<Harness total={9999} />);
    fireEvent.change(screen.getByLabelText("Buscar número"), { target: { value: "777" } });
    expect(screen.getByText("19 encontrados")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Siguiente" })).not.toBeInTheDocument();
  });

  it("toggles numbers, summarises the first 8 with '+N más' and totals in es-ES", () => {
    render(<Harness total={100} max={20} initial={[1, 2, 3, 4, 5, 6, 7, 8, 9]} />);
    fireEvent.click(screen.getByRole("button", { name: "Número 0010" }));
    expect(screen.getByText("+2 más")).toBeInTheDocument();
    expect(screen.getByTestId("picker-total").textContent?.replace(/\u00a0/g, " ")).toBe("US$ 130,00");
    fireEvent.click(screen.getByRole("button", { name: "Número 0010" }));
    expect(screen.getByText("+1 más")).toBeInTheDocument();
  });

  it("refuses past the maximum with the 'Límite alcanzado' toast and shows the max notice", () => {
    render(<Harness total={100} max={2} initial={[1, 2]} />);
    expect(screen.getByText("Máximo 2 boletos por persona")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Número 0003" }));
    expect(toastError).toHaveBeenCalledWith("Límite alcanzado", expect.objectContaining({ description: "Solo puedes seleccionar 2 boletos por persona" }));
  });

  it("words each limit as the server applies it: the minimum per purchase, the maximum per person (issue 31)", () => {
    // The server holds one person to the raffle's maximum across all their purchases (README
    // "One allowance per person"), so the maximum is not one purchase's only.
    render(<Harness total={100} min={2} max={4} />);
    const limits = screen.getByText(/^Mínimo 2/);
    expect(limits).toHaveTextContent("Mínimo 2 por compra · Máximo 4 por persona en este sorteo");
    expect(limits).not.toHaveTextContent("Máximo 4 por compra");
  });

  it("shows the minimum notice below the minimum, in English too", () => {
    render(<Harness total={100} min={3} max={5} initial={[1]} locale="en" />);
    expect(screen.getByText("Purchase restriction")).toBeInTheDocument();
    expect(screen.getByText("Minimum purchase: you must select at least 3 tickets.")).toBeInTheDocument();
  });

  it("random 5 adds five numbers within the allowance; clear empties", () => {
    render(<Harness total={60} max={3} />);
    fireEvent.click(screen.getByRole("button", { name: "Al azar 5" }));
    expect(screen.getAllByRole("button", { pressed: true })).toHaveLength(3);
    fireEvent.click(screen.getByRole("button", { name: /Limpiar/ }));
    expect(screen.queryAllByRole("button", { pressed: true })).toHaveLength(0);
    expect(screen.getByRole("button", { name: /Limpiar/ })).toBeDisabled();
  });

  it("formats counts and limits in the page's language", () => {
    const { unmount } = render(<Harness total={99_999} max={20_000} />);
    expect(screen.getByText("99.999 números disponibles")).toBeInTheDocument();
    expect(screen.getByText("Mínimo 1 por compra · Máximo 20.000 por persona en este sorteo")).toBeInTheDocument();
    unmount();
    render(<Harness total={99_999} max={20_000} locale="en" />);
    expect(screen.getByText("99,999 numbers available")).toBeInTheDocument();
    expect(screen.getByText("Page 1 of 1,563")).toBeInTheDocument();
    expect(screen.getByText("Minimum 1 per purchase · Maximum 20,000 per person in this raffle")).toBeInTheDocument();
  });

  it("lays a page out in 4 columns on a phone and 8 from 640 px: both divide 64", () => {
    render(<Harness total={999} />);
    const grid = screen.getByTestId("ticket-grid");
    expect(grid.className).toMatch(/(^| )grid-cols-4( |$)/);
    expect(grid.className).toMatch(/(^| )sm:grid-cols-8( |$)/);
    expect(64 % 4).toBe(0);
    expect(64 % 8).toBe(0);
  });
});
