// Sales that close (issue 14): the countdown runs to the server's salesCloseAt on the server's
// clock, the closed panel shows when the server says sales are closed, and the purchase form
// reacts to 409 sales_closed and to the per-person allowance.
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { SWRConfig } from "swr";
import { renderToString } from "react-dom/server";
import { Countdown } from "@/components/raffle/countdown";
import { PurchaseForm } from "@/components/raffle/purchase-form";
import { RaffleExperience } from "@/components/raffle/raffle-experience";
import type { PaymentMethod } from "@/lib/api/types";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

const toastError = vi.fn();
vi.mock("@/lib/notify", () => ({
  notify: { error: (...args: unknown[]) => toastError(...args), success: vi.fn(), warning: vi.fn() },
}));
vi.mock("next/navigation", () => ({
  usePathname: () => "/sorteo/1",
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const NOW = new Date("2026-11-20T12:00:00Z").getTime();
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  toastError.mockReset();
});

describe("the countdown to the close of sales", () => {
  it("counts to salesCloseAt, not to the draw, and says 'Compras Cerradas' there", () => {
    vi.useFakeTimers({ now: NOW });
    render(
      <Intl>
        <Countdown drawDate={iso(NOW + 2 * HOUR)} endDate={null} createdAt={iso(NOW - HOUR)} salesCloseAt={iso(NOW + 2000)} />
      </Intl>,
    );
    expect(screen.getByTestId("countdown")).toHaveTextContent("00Horas00Min02Seg");
    act(() => vi.advanceTimersByTime(3000));
    // Sales closed two hours before the draw: the draw has not happened yet.
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Compras Cerradas");
    expect(screen.queryByText("Sorteo Finalizado")).toBeNull();
  });

  it("says the draw took place once the draw date has passed too", () => {
    vi.useFakeTimers({ now: NOW });
    render(
      <Intl>
        <Countdown drawDate={iso(NOW - HOUR)} endDate={null} createdAt={null} salesCloseAt={iso(NOW - 3 * HOUR)} />
      </Intl>,
    );
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Sorteo Finalizado");
  });

  it("runs on the server's clock: a visitor whose clock is a minute behind sees the server's time left", () => {
    vi.useFakeTimers({ now: NOW });
    const props = { drawDate: iso(NOW + 10 * HOUR), endDate: null, createdAt: iso(NOW - HOUR), salesCloseAt: iso(NOW + 90_000) };
    const { unmount } = render(<Intl><Countdown {...props} serverTime={iso(NOW + 60_000)} /></Intl>);
    expect(screen.getByTestId("countdown")).toHaveTextContent("00Min30Seg");
    unmount();
    render(<Intl><Countdown {...props} serverTime={iso(NOW)} /></Intl>);
    expect(screen.getByTestId("countdown")).toHaveTextContent("01Min30Seg");
  });

  it("shows the closed panel at once when the server says sales are closed", () => {
    vi.useFakeTimers({ now: NOW });
    const onClosed = vi.fn();
    render(
      <Intl locale="en">
        <Countdown drawDate={iso(NOW + HOUR)} endDate={null} createdAt={null} salesCloseAt={iso(NOW + HOUR)} closed onClosedChange={onClosed} />
      </Intl>,
    );
    expect(screen.getByTestId("countdown-closed")).toHaveTextContent("Purchases closed");
    expect(screen.queryByText("Draw Finished")).toBeNull();
    expect(onClosed).toHaveBeenLastCalledWith(true);
  });
});

describe("a raffle page whose sales are closed", () => {
  const page = (overrides: Parameters<typeof raffleFixture>[0]) => (
    <Intl>
      <RaffleExperience raffle={raffleFixture({ serverTime: iso(NOW), ...overrides })} methods={[]} renderedAt={NOW} />
    </Intl>
  );

  it("renders the closed panel and no picker when the server says salesOpen is false", () => {
    const html = renderToString(page({ drawDate: iso(NOW + 3 * HOUR), salesCloseAt: iso(NOW + 3 * HOUR), salesOpen: false }));
    expect(html).toContain('data-testid="countdown-closed"');
    expect(html).toContain("Compras Cerradas");
    expect(html).not.toContain('id="pick-title"');
  });

  it("renders closed once salesCloseAt has passed, hours before the draw", () => {
    const html = renderToString(page({ drawDate: iso(NOW + 3 * HOUR), salesCloseAt: iso(NOW - 60_000), salesCloseHoursBeforeDraw: 4, salesOpen: true }));
    expect(html).toContain("Compras Cerradas");
    expect(html).not.toContain('id="pick-title"');
  });

  it("still sells before salesCloseAt", () => {
    const html = renderToString(page({ drawDate: iso(NOW + 30 * HOUR), salesCloseAt: iso(NOW + 6 * HOUR), salesOpen: true }));
    expect(html).toContain('id="pick-title"');
    expect(html).not.toContain("Compras Cerradas");
  });
});

describe("a raffle page served from a cache", () => {
  /** The page as rendered (maybe minutes ago), in a browser whose API answers `live` now. */
  function cachedPage(rendered: Parameters<typeof raffleFixture>[0], live: Parameters<typeof raffleFixture>[0]) {
    const reads: string[] = [];
    const fetcher = async (url: string) => {
      reads.push(url);
      if (url === "/api/raffles/1") return raffleFixture(live);
      throw new Error(`no ${url} here`);
    };
    render(
      <SWRConfig value={{ provider: () => new Map(), fetcher }}>
        <Intl>
          <RaffleExperience raffle={raffleFixture(rendered)} methods={[]} renderedAt={null} />
        </Intl>
      </SWRConfig>,
    );
    return reads;
  }

  it("reads whether sales are open again, and closes when they closed since", async () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const closing = { drawDate: iso(NOW + 30 * HOUR), salesCloseAt: iso(NOW + 30 * HOUR) };
    const reads = cachedPage({ ...closing, salesOpen: true, serverTime: iso(NOW - 5 * 60_000) }, { ...closing, salesOpen: false, serverTime: iso(NOW) });
    expect(await screen.findByTestId("countdown-closed")).toHaveTextContent("Compras Cerradas");
    expect(reads).toContain("/api/raffles/1");
    expect(document.getElementById("pick-title")).toBeNull();
  });

  it("corrects the clock with the live answer's serverTime, not the cached page's", async () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const closing = { drawDate: iso(NOW + 10 * HOUR), salesCloseAt: iso(NOW + 10 * 60_000) };
    // The cached page says the server's clock was 5 minutes behind; the live answer, 2 minutes ahead.
    cachedPage({ ...closing, serverTime: iso(NOW - 5 * 60_000) }, { ...closing, serverTime: iso(NOW + 2 * 60_000) });
    await waitFor(() => expect(screen.getByTestId("countdown")).toHaveTextContent("08Min00Seg"));
  });
});

const zelle: PaymentMethod = { id: 1, name: "Zelle", type: "zelle", active: true, details: {}, exchangeRateId: null, exchangeRate: null, referenceRequired: false, referenceMinLength: 0 };

/** The form, filled in and submitted, against an API that answers `answer` to the purchase. */
async function submitAgainst(answer: Response) {
  vi.stubGlobal("fetch", vi.fn(async () => answer));
  const onSalesClosed = vi.fn();
  const onPurchased = vi.fn();
  render(
    <Intl>
      <PurchaseForm
        raffleId={1}
        tickets={{ numbers: [7] }}
        width={4}
        total="5.00"
        discount="0"
        methods={[zelle]}
        asAdmin={false}
        onPurchased={onPurchased}
        onTaken={vi.fn()}
        onPriceChanged={vi.fn()}
        onSalesClosed={onSalesClosed}
      />
    </Intl>,
  );
  fireEvent.change(screen.getByLabelText("Nombre completo"), { target: { value: "Ana Pérez" } });
  fireEvent.change(screen.getByLabelText("Cédula o pasaporte"), { target: { value: "V1234567" } });
  fireEvent.change(screen.getByLabelText("Correo electrónico"), { target: { value: "ana@example.com" } });
  fireEvent.change(screen.getByLabelText("Teléfono (WhatsApp)"), { target: { value: "0414 123 4567" } });
  fireEvent.change(screen.getByLabelText("País"), { target: { value: "venezuela" } });
  fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "1" } });
  fireEvent.change(screen.getByLabelText("Comprobante de pago"), { target: { files: [new File(["png"], "pago.png", { type: "image/png" })] } });
  fireEvent.click(screen.getByRole("checkbox"));
  fireEvent.click(screen.getByRole("button", { name: /Comprar/ }));
  return { onSalesClosed, onPurchased };
}

describe("the purchase form against the new refusals", () => {
  it("tells the page when sales closed meanwhile, with the server's message", async () => {
    const { onSalesClosed, onPurchased } = await submitAgainst(
      new Response('{"code":"sales_closed","message":"Compras Cerradas"}', { status: 409 }),
    );
    await waitFor(() => expect(onSalesClosed).toHaveBeenCalledTimes(1));
    expect(toastError).toHaveBeenCalledWith("Error al procesar la compra", { description: "Compras Cerradas" });
    expect(onPurchased).not.toHaveBeenCalled();
  });

  it("shows the per-person allowance in the server's words above the button", async () => {
    const body = { code: "validation_failed", message: "Revisa los datos", fields: { ticketNumbers: "Solo puedes comprar 2 boleto(s) por persona" } };
    const { onSalesClosed } = await submitAgainst(new Response(JSON.stringify(body), { status: 422 }));
    const alert = await screen.findByTestId("tickets-error");
    expect(alert).toHaveTextContent("Solo puedes comprar 2 boleto(s) por persona");
    expect(alert).toHaveAttribute("role", "alert");
    expect(toastError).toHaveBeenCalledWith("Error al procesar la compra", { description: "Solo puedes comprar 2 boleto(s) por persona" });
    expect(onSalesClosed).not.toHaveBeenCalled();
  });
});
