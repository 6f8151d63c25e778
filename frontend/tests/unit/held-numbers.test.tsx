// Nothing left to pick (issue 14): 'Agotado' when every number is sold, otherwise the held
// numbers, when the next hold ends, and the release alert.
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { SWRConfig } from "swr";
import { HeldNumbersPanel } from "@/components/raffle/held-numbers-panel";
import { RaffleExperience } from "@/components/raffle/raffle-experience";
import { ReleaseAlertForm } from "@/components/raffle/release-alert-form";
import { AFTER_DEADLINE_MS } from "@/lib/countdown";
import { formatDateTime, formatTime } from "@/lib/format";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

vi.mock("next/navigation", () => ({
  usePathname: () => "/sorteo/1",
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));

const NOW = new Date("2026-11-20T12:00:00Z").getTime();
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The API: the availability answer for the raffle, and `other` for anything else. */
function stubApi(availability: { bitmap: number[]; headers: Record<string, string> }, other: () => Response = () => new Response("{}")) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      if (url.endsWith("/availability")) return new Response(new Uint8Array(availability.bitmap), { headers: availability.headers });
      return other();
    }),
  );
  return calls;
}

function page(locale: "es" | "en" = "es") {
  return render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <Intl locale={locale}>
        <RaffleExperience raffle={raffleFixture({ maxTickets: 16, serverTime: iso(NOW) })} methods={[]} renderedAt={NOW} />
      </Intl>
    </SWRConfig>,
  );
}

describe("a raffle with nothing left to pick", () => {
  it("says 'Agotado' when every number is sold and none is only held", async () => {
    stubApi({ bitmap: [0, 0], headers: { "X-Max-Tickets": "16", "X-Available-Count": "0", "X-Pending-Count": "0" } });
    page();
    expect(await screen.findByTestId("sold-out")).toHaveTextContent("Agotado");
    expect(screen.queryByTestId("held-numbers")).toBeNull();
    expect(screen.queryByTestId("release-alert-form")).toBeNull();
    expect(document.getElementById("pick-title")?.closest("section")).not.toBeVisible();
  });

  it("says numbers are only held, when the next hold ends, and offers the alert", async () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const release = iso(NOW + 20 * MINUTE);
    stubApi({ bitmap: [0, 0], headers: { "X-Max-Tickets": "16", "X-Available-Count": "0", "X-Pending-Count": "3", "X-Next-Release-At": release } });
    page();
    const held = await screen.findByTestId("held-numbers");
    expect(held).toHaveTextContent("Todos los números están apartados");
    expect(held).toHaveTextContent("3 números están apartados por compras que aún esperan su comprobante.");
    expect(screen.getByTestId("next-release")).toHaveTextContent(`El próximo plazo vence hoy a las ${formatTime(release, "es")}.`);
    expect(screen.getByTestId("release-alert-form")).toBeInTheDocument();
    expect(screen.queryByTestId("sold-out")).toBeNull();
  });

  it("says so in English, with the day when the hold ends another day", async () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const release = iso(NOW + 3 * 24 * 60 * MINUTE);
    stubApi({ bitmap: [0, 0], headers: { "X-Max-Tickets": "16", "X-Available-Count": "0", "X-Pending-Count": "1", "X-Next-Release-At": release } });
    page("en");
    const held = await screen.findByTestId("held-numbers");
    expect(held).toHaveTextContent("Every number is on hold");
    expect(held).toHaveTextContent("1 number is held by a purchase still waiting for its proof of payment.");
    expect(screen.getByTestId("next-release")).toHaveTextContent(`The next hold ends on ${formatDateTime(release, "en")}.`);
    expect(screen.getByRole("button", { name: "Notify me" })).toBeInTheDocument();
  });

  it("says held numbers come back only on a rejection when no hold can expire", async () => {
    stubApi({ bitmap: [0, 0], headers: { "X-Max-Tickets": "16", "X-Available-Count": "0", "X-Pending-Count": "2" } });
    page();
    expect(await screen.findByTestId("next-release")).toHaveTextContent("solo vuelven a la venta si el organizador rechaza un pago");
  });

  it("shows the picker, not the panels, while some number is on sale", async () => {
    stubApi({ bitmap: [0b0100_0000, 0], headers: { "X-Max-Tickets": "16", "X-Available-Count": "1", "X-Pending-Count": "15" } });
    page();
    await screen.findByText("1 número disponible");
    expect(screen.queryByTestId("held-numbers")).toBeNull();
    expect(screen.queryByTestId("sold-out")).toBeNull();
  });
});

describe("the held numbers' deadline", () => {
  it("reads the numbers again once the next hold is due, not before", () => {
    vi.useFakeTimers({ now: NOW });
    stubApi({ bitmap: [], headers: {} });
    const onDue = vi.fn();
    render(
      <Intl>
        <HeldNumbersPanel raffleId={1} pendingCount={2} nextReleaseAt={iso(NOW + 5 * MINUTE)} serverTime={iso(NOW)} onDue={onDue} />
      </Intl>,
    );
    act(() => vi.advanceTimersByTime(5 * MINUTE));
    expect(onDue).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(AFTER_DEADLINE_MS));
    expect(onDue).toHaveBeenCalledTimes(1);
  });
});

describe("the release alert", () => {
  function form(answer: () => Response) {
    const calls = stubApi({ bitmap: [], headers: {} }, answer);
    render(
      <Intl>
        <ReleaseAlertForm raffleId={4} />
      </Intl>,
    );
    return calls;
  }
  const type = (value: string) => fireEvent.change(screen.getByLabelText("Tu correo electrónico"), { target: { value } });
  const send = () => fireEvent.click(screen.getByRole("button", { name: "Avisarme" }));

  it("checks the address before asking the server", async () => {
    const calls = form(() => new Response('{"subscribed":true}', { status: 201 }));
    type("ana@");
    send();
    expect(await screen.findByText("Email inválido")).toBeInTheDocument();
    expect(screen.getByLabelText("Tu correo electrónico")).toHaveAttribute("aria-invalid", "true");
    expect(calls).toHaveLength(0);
  });

  it("subscribes and says where it will write", async () => {
    const calls = form(() => new Response('{"subscribed":true}', { status: 201 }));
    type(" ana@example.com ");
    send();
    expect(await screen.findByTestId("release-alert-done")).toHaveTextContent("Te avisaremos en ana@example.com cuando se liberen números.");
    expect(calls[0]?.url).toBe("/api/raffles/4/release-alerts");
    expect(calls[0]?.init?.body).toBe('{"email":"ana@example.com"}');
  });

  it("puts the server's field message under the field", async () => {
    form(() => new Response('{"code":"validation_failed","message":"Datos inválidos","fields":{"email":"Este dominio no recibe correo"}}', { status: 422 }));
    type("ana@example.invalid");
    send();
    expect(await screen.findByText("Este dominio no recibe correo")).toBeInTheDocument();
    expect(screen.queryByTestId("release-alert-done")).toBeNull();
  });

  it("says when there were too many attempts, in the server's words when it sends some", async () => {
    form(() => new Response("", { status: 429 }));
    type("ana@example.com");
    send();
    expect(await screen.findByTestId("release-alert-error")).toHaveTextContent("Demasiados intentos. Espera un momento y vuelve a intentarlo.");
  });

  it("says it could not save the address when the API fails", async () => {
    form(() => new Response("", { status: 502 }));
    type("ana@example.com");
    send();
    await waitFor(() => expect(screen.getByTestId("release-alert-error")).toHaveTextContent("No pudimos guardar tu correo. Inténtalo de nuevo."));
  });
});
