import { afterEach, describe, expect, it, vi } from "vitest";
import { act, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { hydrateRoot } from "react-dom/client";
import { Countdown } from "@/components/raffle/countdown";
import { RaffleExperience } from "@/components/raffle/raffle-experience";
import type { Raffle } from "@/lib/api/types";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

vi.mock("next/navigation", () => ({
  usePathname: () => "/sorteo/1",
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));

const NOW = new Date("2026-11-20T12:00:00Z").getTime();
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

afterEach(() => {
  vi.useRealTimers();
});

describe("countdown closed panels", () => {
  it("shows 'Sorteo Finalizado' when the draw date has passed", () => {
    render(<Intl><Countdown drawDate={iso(Date.now() - HOUR)} endDate={null} createdAt={null} /></Intl>);
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Sorteo Finalizado");
    expect(screen.getByText("El sorteo ya se realizó. Consulta los resultados en nuestras redes.")).toBeInTheDocument();
  });

  it("shows 'Compras Cerradas' when only the end date is set and has passed", () => {
    render(<Intl><Countdown drawDate={null} endDate={iso(Date.now() - HOUR)} createdAt={null} /></Intl>);
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Compras Cerradas");
    expect(screen.queryByText("Sorteo Finalizado")).toBeNull();
  });

  it("shows the English panels too", () => {
    render(<Intl locale="en"><Countdown drawDate={null} endDate={iso(Date.now() - HOUR)} createdAt={null} /></Intl>);
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Purchases closed");
  });

  it("ticks every second and closes at zero, telling the page", () => {
    vi.useFakeTimers({ now: NOW });
    const onClosed = vi.fn();
    render(<Intl><Countdown drawDate={iso(NOW + 2500)} endDate={null} createdAt={iso(NOW - HOUR)} onClosedChange={onClosed} /></Intl>);
    expect(screen.getByTestId("countdown")).toHaveTextContent("02");
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId("countdown")).toHaveTextContent("01");
    expect(onClosed).toHaveBeenLastCalledWith(false);
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Sorteo Finalizado");
    expect(onClosed).toHaveBeenLastCalledWith(true);
  });

  it("renders the closed panel on the server when the server's clock is past the target", () => {
    const html = renderToString(
      <Intl><Countdown drawDate={iso(NOW - HOUR)} endDate={null} createdAt={null} renderedAt={NOW} /></Intl>,
    );
    expect(html).toContain("Sorteo Finalizado");
    expect(html).not.toContain('data-testid="countdown"');
  });
});

const raffle = (drawDate: string | null): Raffle =>
  raffleFixture({
    drawDate,
    createdAt: iso(NOW - 10 * 24 * HOUR),
    salesOpen: drawDate === null || Date.parse(drawDate) > NOW,
    serverTime: iso(NOW),
  });

describe("a raffle whose draw date has passed", () => {
  const page = (r: Raffle) => (
    <Intl>
      <RaffleExperience raffle={r} methods={[]} renderedAt={NOW} />
    </Intl>
  );

  it("is rendered closed on the server: no picker in the HTML", () => {
    const html = renderToString(page(raffle(iso(NOW - HOUR))));
    expect(html).toContain("Sorteo Finalizado");
    expect(html).not.toContain("Elige tus números");
    expect(html).not.toContain("raffle-unavailable");
  });

  it("still renders the picker on the server while the raffle is open", () => {
    const html = renderToString(page(raffle(iso(NOW + 24 * HOUR))));
    expect(html).toContain("Elige tus números");
    expect(html).not.toContain("Sorteo Finalizado");
  });

  it("shows a visitor only the not-available message on a finished raffle, no countdown beside it", () => {
    const html = renderToString(page({ ...raffle(iso(NOW - HOUR)), status: "finished" }));
    expect(html).toContain('data-testid="raffle-unavailable"');
    expect(html).toContain("Sorteo No Disponible");
    expect(html).not.toContain("countdown");
    expect(html).not.toContain('id="pick-title"');
  });

  it("hydrates without a mismatch and without showing the picker", async () => {
    vi.useFakeTimers({ now: NOW + 5000, toFake: ["Date"] });
    const element = page(raffle(iso(NOW - HOUR)));
    const container = document.createElement("div");
    container.innerHTML = renderToString(element);
    document.body.appendChild(container);
    const errors: unknown[] = [];
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(container.textContent ?? ""));
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    const root = hydrateRoot(container, element, { onRecoverableError: (e) => errors.push(e) });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    observer.disconnect();
    expect(errors).toEqual([]);
    expect(container.textContent).toContain("Sorteo Finalizado");
    expect(seen.some((text) => text.includes("Elige tus números"))).toBe(false);
    act(() => root.unmount());
    container.remove();
  });
});
