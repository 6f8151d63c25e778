// The public side of the verifiable draw (issue 15): the raffle page's prizes and rule, the home's
// winners, and the verification page checking a published ledger in the browser.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { DrawVerification } from "@/components/draw/draw-verification";
import { RaffleDrawSection, RaffleDrawView } from "@/components/draw/raffle-draw-section";
import { HomeWinners } from "@/components/home/home-winners";
import { swrConfig } from "@/lib/api/fetcher";
import type { PublicDraw, PublishedLedger, PublicWinner } from "@/lib/api/types";
import { beaconResult, hex, LEDGER_SALT, publicDrawFixture, publishedLedger, sha, tagOf } from "./draw-fixtures";
import { Intl } from "./intl";

afterEach(() => vi.unstubAllGlobals());

const showDraw = (draw: PublicDraw, locale: "es" | "en" = "es") =>
  render(
    <Intl locale={locale}>
      <RaffleDrawView draw={draw} />
    </Intl>,
  );

describe("the raffle page's prizes and rules", () => {
  it("shows each prize, its source, the result, the winner and the way to check it", () => {
    showDraw(publicDrawFixture());
    const first = screen.getByTestId("prize-1");
    expect(within(first).getByRole("heading", { name: "Moto" })).toBeInTheDocument();
    expect(within(first).getByRole("img", { name: "Moto" })).toHaveAttribute("src", "/images/moto.jpg");
    expect(first).toHaveTextContent("Lotería del Táchira, sorteo del 24 de diciembre de 2026");
    expect(within(first).getByRole("link", { name: /Fuente oficial/ })).toHaveAttribute("href", "https://loteria.example");
    expect(within(first).getByTestId("winning-number-1")).toHaveTextContent("0051");
    expect(first).toHaveTextContent("María P. · Venezuela");
    expect(first).toHaveTextContent("El 0050 no se vendió: el siguiente número vendido hacia arriba es el 0051.");

    const second = screen.getByTestId("prize-2");
    // Plain words for a buyer; the service's name only in the small print under them (issue 31).
    expect(second).toHaveTextContent("Número al azar público de la ronda 1234567");
    expect(second).toHaveTextContent("Lo publica drand, un servicio público");
    expect(second).toHaveTextContent("Todavía no se ha sorteado.");
    expect(within(second).queryByRole("img")).toBeNull();

    expect(screen.getByTestId("draw-commitment")).toHaveTextContent("1234 números vendidos");
    expect(screen.getByTestId("draw-commitment")).toHaveTextContent("3f9a0c1e…77b2d4a0");
    expect(screen.getByTestId("draw-root")).toHaveTextContent(publicDrawFixture().commitment!.root);
    expect(screen.getByRole("link", { name: /Comprobar el sorteo/ })).toHaveAttribute("href", "/sorteo/17/verificacion");
  });

  it("states the rule with the raffle's own figures, in both languages", () => {
    const { unmount } = showDraw(publicDrawFixture());
    const rule = screen.getByTestId("draw-rule");
    expect(rule).toHaveTextContent("los últimos 4 dígitos");
    expect(rule).toHaveTextContent("el resultado 12-34-5678 da el 5678");
    expect(rule).toHaveTextContent("46 se lee 0046");
    expect(rule).toHaveTextContent("después del 9999 se sigue por el 0001");
    expect(rule).toHaveTextContent("(0000 o mayor que 9999)");
    // A drand prize explains the beacon too, in plain words.
    expect(rule).toHaveTextContent("Con un número al azar público");
    expect(rule).toHaveTextContent("se divide entre 9999");
    expect(rule).not.toHaveTextContent(/drand|bytes/);
    unmount();

    const big = publicDrawFixture({ maxTickets: 99_999, digitsUsed: 5, prizes: [publicDrawFixture().prizes[0]!] });
    showDraw(big, "en");
    const english = screen.getByTestId("draw-rule");
    expect(english).toHaveTextContent("the last 5 digits");
    expect(english).toHaveTextContent("the result 12-34-5678 gives 45678");
    expect(english).toHaveTextContent("46 is read as 00046");
    expect(english).not.toHaveTextContent("drand");
    expect(screen.getByTestId("winning-number-1")).toHaveTextContent("00051");
  });

  it("states the fair rules and words a lapsed source and a rehashed round, in both languages", () => {
    const [prize] = publicDrawFixture().prizes;
    const draw = {
      ...prize!.draw!,
      source: 1,
      winningNumber: 51,
      steps: [
        { step: "sourceLapsed" as const, source: 0, deadline: "2026-12-25T23:45:00Z" },
        { step: "beaconRandomness" as const, round: 9, randomnessHex: "ff".repeat(32) },
        { step: "inPlay" as const, count: 3 },
        { step: "incompleteRound" as const, count: 3 },
        { step: "rehashed" as const, randomnessHex: "0a1b2c3d4e5f6071".padEnd(64, "0") },
        { step: "place" as const, remainder: 1, count: 3, number: 51 },
        { step: "wins" as const, number: 51 },
      ],
    };
    const fair = publicDrawFixture({ rule: "rifa-among-sold-v2", prizes: [{ ...prize!, draw }] });
    const { unmount } = showDraw(fair);
    const rule = screen.getByTestId("draw-rule");
    expect(rule).toHaveTextContent("Los números vendidos que siguen en juego");
    expect(rule).toHaveTextContent("la misma probabilidad");
    expect(rule).not.toHaveTextContent("hacia arriba");
    const result = screen.getByTestId("prize-result-1");
    expect(result).toHaveTextContent("La fuente propia del premio no dio resultado antes del plazo (25 de diciembre de 2026 a las 23:45 UTC): decide la siguiente fuente.");
    expect(result).toHaveTextContent("se reemplaza por su SHA-256 (empieza por 0a1b2c3d4e5f6071)");
    unmount();

    showDraw({ ...fair, rule: "rifa-number-v2" }, "en");
    expect(screen.getByTestId("draw-rule")).toHaveTextContent("the result 12-34-5678 names 5678");
    expect(screen.getByTestId("prize-result-1")).toHaveTextContent("The prize's own source gave no result by its deadline");
    expect(screen.getByTestId("prize-result-1")).toHaveTextContent("replaced by its SHA-256 (it starts with 0a1b2c3d4e5f6071)");
  });

  it("writes a small raffle's numbers as its tickets, though the rule reads fewer digits", () => {
    showDraw(publicDrawFixture({ maxTickets: 999, digitsUsed: 3 }));
    const rule = screen.getByTestId("draw-rule");
    expect(rule).toHaveTextContent("los últimos 3 dígitos");
    expect(rule).toHaveTextContent("el resultado 12-34-5678 da el 678");
    expect(rule).toHaveTextContent("después del 0999 se sigue por el 0001");
    expect(rule).toHaveTextContent("(0000 o mayor que 0999)");
    expect(screen.getByTestId("winning-number-1")).toHaveTextContent(/^0051$/);
  });

  it("says when the list will be frozen, and shows a prize without winner", () => {
    const [prize] = publicDrawFixture().prizes;
    const noWinner = { ...prize!, draw: { ...prize!.draw!, winningNumber: null, winner: null, steps: [{ step: "noWinner" as const }] } };
    showDraw(publicDrawFixture({ commitment: null, prizes: [noWinner] }));
    expect(screen.getByTestId("draw-not-frozen")).toHaveTextContent("se congelará");
    expect(screen.queryByRole("link", { name: /Comprobar/ })).toBeNull();
    expect(screen.getByTestId("prize-result-1")).toHaveTextContent("Sin ganador");
  });

  it("renders nothing when the API fails, the raffle is not public or it has no prizes", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response('{"code":"not_found"}', { status: 404 })));
    expect(await RaffleDrawSection({ raffleId: 17 })).toBeNull();
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("fetch failed"))));
    expect(await RaffleDrawSection({ raffleId: 17 })).toBeNull();
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(publicDrawFixture({ prizes: [] })))));
    expect(await RaffleDrawSection({ raffleId: 17 })).toBeNull();
    const fetch = vi.fn<(url: string) => Promise<Response>>(async () => new Response(JSON.stringify(publicDrawFixture())));
    vi.stubGlobal("fetch", fetch);
    expect(await RaffleDrawSection({ raffleId: 17 })).not.toBeNull();
    expect(fetch.mock.calls[0]![0]).toMatch(/\/api\/raffles\/17\/draw$/);
  });
});

const winner = (overrides: Partial<PublicWinner> = {}): PublicWinner => ({
  raffleId: 17,
  raffleTitle: "Moto 0 km",
  prizeTitle: "Moto",
  position: 1,
  maxTickets: 999,
  number: 46,
  displayName: "María P.",
  country: "venezuela",
  drawnAt: "2026-12-25T10:00:00Z",
  ...overrides,
});

describe("the home's winners", () => {
  it("shows nothing without winners", () => {
    const { container } = render(<Intl><HomeWinners winners={[]} /></Intl>);
    expect(container).toBeEmptyDOMElement();
  });

  it("shows a card per winner, its number written as its raffle's tickets, with the way to check its draw", () => {
    render(<Intl locale="en"><HomeWinners winners={[winner(), winner({ raffleId: 9, position: 2, prizeTitle: "Casco", maxTickets: 99_999, number: 345, country: "Chile" })]} /></Intl>);
    const cards = screen.getAllByTestId("winner-card");
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent("Moto 0 km");
    expect(within(cards[0]!).getByTestId("winner-number")).toHaveTextContent(/^0046$/);
    expect(cards[0]).toHaveTextContent("María P. · Venezuela");
    expect(cards[0]).toHaveTextContent("December 25, 2026");
    expect(within(cards[0]!).getByRole("link", { name: /See how it was chosen/ })).toHaveAttribute("href", "/sorteo/17/verificacion");
    expect(within(cards[1]!).getByTestId("winner-number")).toHaveTextContent(/^00345$/);
    expect(cards[1]).toHaveTextContent("Chile");
  });
});

/** The API answering GET …/draw/ledger with `answer`. */
function stubLedger(answer: PublishedLedger | Response) {
  const fetch = vi.fn<(url: string) => Promise<Response>>(async () => (answer instanceof Response ? answer.clone() : new Response(JSON.stringify(answer))));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const showVerification = (locale: "es" | "en" = "es") =>
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <DrawVerification raffleId={17} />
      </Intl>
    </SWRConfig>,
  );

describe("the verification page", () => {
  it("recomputes the fingerprint and each winner, step by step", async () => {
    const fetch = stubLedger(publishedLedger());
    showVerification();
    const root = await screen.findByTestId("root-status");
    expect(fetch.mock.calls[0]![0]).toBe("/api/raffles/17/draw/ledger");
    expect(root).toHaveAttribute("data-ok", "true");
    expect(root).toHaveTextContent("Coincide");
    expect(screen.getByTestId("root-computed")).toHaveTextContent(publishedLedger().root);

    expect(screen.getByTestId("prize-verdict-1")).toHaveAttribute("data-ok", "true");
    expect(screen.getByTestId("prize-steps-1")).toHaveTextContent("El resultado oficial es 3 875 678. Sus últimos 4 dígitos son 5678: el número sorteado es el 5678.");
    expect(screen.getByTestId("prize-verdict-2")).toHaveAttribute("data-ok", "true");
    expect(screen.getByTestId("prize-steps-2")).toHaveTextContent("El 5678 ya ganó un premio anterior: el siguiente número vendido que no ha ganado es el 9000.");
    expect(screen.queryByTestId("prize-verdict-3")).toBeNull();
    expect(screen.getByTestId("prize-pending-3")).toHaveTextContent("Todavía no se ha sorteado.");
    expect(screen.getByRole("link", { name: /Descargar el archivo del sorteo/ })).toHaveAttribute("href", "/api/raffles/17/draw/ledger");
    // A verifier the buyer can keep: the Python script and the document it implements.
    expect(screen.getByRole("link", { name: /Descargar el verificador/ })).toHaveAttribute("href", "/api/draw/verifier/verify_draw.py");
    expect(screen.getByRole("link", { name: /VERIFYING\.md/ })).toHaveAttribute("href", "/api/draw/verifier/VERIFYING.md");
    expect(screen.getByText(/rifa-api verify-draw archivo\.json/)).toBeInTheDocument();
    // The commitment came before every source it is drawn from.
    expect(screen.getByTestId("prize-time-order-1")).toHaveTextContent(/La lista se congeló \(.*\) antes del sorteo de Lotería del Táchira/);
    expect(screen.getByTestId("prize-time-order-3")).toHaveTextContent(/antes del sorteo de la ronda 1234567 de drand/);
  });

  it("says when a source drew before the list was frozen", async () => {
    // Frozen on the lottery's draw day, after its first minute (a draw without a time).
    stubLedger(publishedLedger({ frozenAt: "2026-12-24T20:00:00Z" }));
    showVerification("en");
    const order = await screen.findByTestId("prize-time-order-1");
    expect(order).toHaveTextContent(/Not valid: Lotería del Táchira drew \(.*\) before the list was frozen/);
  });

  it("says when the list or a winner does not hold", async () => {
    const tampered = publishedLedger();
    tampered.entries[1] = [50, hex(tagOf(LEDGER_SALT, "RF-FRIEND"))];
    tampered.prizes[0]!.winningNumber = 50;
    stubLedger(tampered);
    showVerification("en");
    const root = await screen.findByTestId("root-status");
    expect(root).toHaveAttribute("data-ok", "false");
    expect(root).toHaveTextContent("It does not match");
    expect(screen.getByTestId("root-computed").textContent).not.toBe(tampered.root);
    expect(screen.getByTestId("prize-verdict-1")).toHaveAttribute("data-ok", "false");
    expect(screen.getByTestId("prize-verdict-1")).toHaveTextContent("Published winner: 0050. Winner by the rule: 5678.");
  });

  it("checks a drand result against its signature", async () => {
    const signature = sha("signature").slice(0, 48);
    const draw = publishedLedger();
    draw.prizes[2]!.result = { kind: "beacon", round: 1_234_567, randomness: hex(sha("not the signature")), signature: hex(signature) };
    stubLedger(draw);
    showVerification();
    const verdict = await screen.findByTestId("prize-verdict-3");
    expect(verdict).toHaveAttribute("data-ok", "false");
    expect(verdict).toHaveTextContent("No vale: el número al azar publicado no es el que emitió su fuente (drand).");
    expect(screen.getByRole("link", { name: /Compararlo con su fuente \(drand\)/ })).toHaveAttribute("href", expect.stringMatching(/api\.drand\.sh\/52db9ba7\w+\/public\/1234567$/));
    expect(screen.getByText("Número al azar público de la ronda 1234567.")).toBeInTheDocument();
    // The exact reading, with the technical words, is in the technical details.
    expect(screen.getByTestId("details-beacon")).toHaveTextContent("primeros 8 bytes");
  });

  it("says a round was used where the prize's chain announces no round, in both languages", async () => {
    // Prize 1's source is a lottery: a round in its place has no announced round to compare with.
    const draw = publishedLedger();
    draw.prizes[0]!.result = beaconResult(1_234_567);
    stubLedger(draw);
    const { unmount } = showVerification();
    const verdict = await screen.findByTestId("prize-verdict-1");
    expect(verdict).toHaveAttribute("data-ok", "false");
    expect(verdict).toHaveTextContent("No vale: se usó el número al azar de la ronda 1234567, pero en ese lugar de la cadena del premio no hay ronda anunciada.");
    expect(verdict).not.toHaveTextContent("ronda 0");
    unmount();
    showVerification("en");
    const english = await screen.findByTestId("prize-verdict-1");
    expect(english).toHaveTextContent("Not valid: the random number of round 1234567 was used where the prize's chain announces no round.");
  });

  it("finds a buyer's numbers by reference, proven in the list, and which won", async () => {
    stubLedger(publishedLedger());
    showVerification();
    await screen.findByTestId("root-status");
    fireEvent.change(screen.getByLabelText("Referencia de tu compra"), { target: { value: " rf-ana " } });
    fireEvent.click(screen.getByRole("button", { name: "Buscar mis números" }));
    const result = await screen.findByTestId("inclusion-result");
    expect(result).toHaveAttribute("data-ok", "true");
    expect(result).toHaveTextContent("Los números de RF-ANA están en la lista congelada");
    const numbers = within(result).getAllByTestId("my-number");
    expect(numbers.map((n) => n.getAttribute("data-proven"))).toEqual(["true", "true"]);
    expect(numbers[0]).toHaveTextContent("0046");
    expect(numbers[1]).toHaveTextContent("5678");
    expect(numbers[1]).toHaveTextContent("Ganó el premio 1");

    fireEvent.change(screen.getByLabelText("Referencia de tu compra"), { target: { value: "RF-NADIE" } });
    fireEvent.click(screen.getByRole("button", { name: "Buscar mis números" }));
    await waitFor(() => expect(screen.getByTestId("inclusion-result")).toHaveTextContent("No hay números de la referencia RF-NADIE"));
    expect(screen.getByTestId("inclusion-result")).toHaveAttribute("data-ok", "false");
  });

  it("takes the reference from a pasted link, or asks for the printed one", async () => {
    stubLedger(publishedLedger());
    showVerification();
    await screen.findByTestId("root-status");
    const field = screen.getByLabelText("Referencia de tu compra");
    fireEvent.change(field, { target: { value: "https://rifa.example/compra/12#k3y" } });
    fireEvent.click(screen.getByRole("button", { name: "Buscar mis números" }));
    expect(await screen.findByText(/Ese enlace no incluye la referencia/)).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("inclusion-result")).toBeNull();

    fireEvent.change(field, { target: { value: "https://rifa.example/recibo?ref=RF-LUIS" } });
    fireEvent.click(screen.getByRole("button", { name: "Buscar mis números" }));
    expect(await screen.findByTestId("inclusion-result")).toHaveTextContent("0050");
  });

  it("explains, kindly, that the list is frozen when sales close", async () => {
    stubLedger(new Response(JSON.stringify({ code: "draw_not_frozen", message: "La lista de números de esta rifa todavía no está congelada" }), { status: 409 }));
    showVerification();
    const notice = await screen.findByTestId("ledger-unavailable");
    expect(notice).toHaveTextContent("La lista de números vendidos se congela cuando cierran las ventas");
    expect(screen.queryByRole("button", { name: "Reintentar" })).toBeNull();
  });

  it("says so when the raffle is not public", async () => {
    stubLedger(new Response(JSON.stringify({ code: "raffle_not_found", message: "Rifa no encontrada" }), { status: 404 }));
    showVerification();
    expect(await screen.findByTestId("ledger-unavailable")).toHaveTextContent("Este sorteo no existe o ya no está publicado.");
    expect(screen.queryByRole("button", { name: "Reintentar" })).toBeNull();
  });

  it("offers to try again when the API did not answer", async () => {
    stubLedger(new Response("", { status: 502 }));
    showVerification("en");
    expect(await screen.findByTestId("ledger-unavailable")).toHaveTextContent("We could not download the list");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("sends to the offline check where the browser cannot hash (a page not on https)", async () => {
    stubLedger(publishedLedger());
    vi.stubGlobal("crypto", {});
    showVerification();
    expect(await screen.findByTestId("ledger-unreadable")).toHaveTextContent("necesita una conexión segura");
    expect(screen.queryByTestId("root-status")).toBeNull();
  });

  it("says so when the file is not a ledger", async () => {
    stubLedger({ ...publishedLedger(), root: "not a digest" });
    showVerification();
    expect(await screen.findByTestId("ledger-unreadable")).toHaveTextContent("no se puede leer");
    expect(screen.getByRole("link", { name: /Descargar el archivo del sorteo/ })).toBeInTheDocument();
  });
});
