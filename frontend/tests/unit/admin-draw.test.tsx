// The panel's side of the verifiable draw (issue 15): the prizes editor, the freeze, recording
// results in order, the outcome in words, and the claim until delivery. The API is stubbed at
// fetch with its documented shapes (every write answers the whole admin view).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { claimUrgency, firstRoundAfter, firstRoundAfterClose, freezeBlockers, quicknetRoundTime, resultBlocker } from "@/lib/admin/draw";
import { swrConfig } from "@/lib/api/fetcher";
import type { AdminDrawView, AdminPrize, AdminPrizeDraw, ResultPreview } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { prizeServerFields } from "@/lib/validations/draw";
import { Intl, storeAdminSession } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));
const { DrawDialog } = await import("@/components/admin/draw/draw-dialog");

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  toast.success.mockReset();
  toast.error.mockReset();
});

function lotteryPrize(overrides: Partial<AdminPrize> = {}): AdminPrize {
  return {
    id: 11,
    position: 1,
    title: "Moto",
    description: "Una moto 150cc",
    image: null,
    source: { kind: "lottery", lotteryName: "Lotería del Táchira", drawDate: "2026-12-24", sourceUrl: "https://loteria.example/resultados" },
    draw: null,
    claim: null,
    results: [],
    ...overrides,
  };
}

function beaconPrize(overrides: Partial<AdminPrize> = {}): AdminPrize {
  return {
    id: 12,
    position: 2,
    title: "Televisor",
    description: "",
    image: "https://img.example/tv.jpg",
    source: { kind: "beacon", round: 12_345_678 },
    draw: null,
    claim: null,
    results: [],
    ...overrides,
  };
}

/** A 9,999-number raffle whose sales have closed, no purchase pending, not frozen yet. */
function viewFixture(overrides: Partial<AdminDrawView> = {}): AdminDrawView {
  return {
    raffleId: 1,
    maxTickets: 9999,
    digitsUsed: 4,
    rule: "rifa-among-sold-v2",
    awaiting: null,
    salesCloseAt: "2026-12-24T20:00:00.000Z",
    salesOpen: false,
    rulesLocked: false,
    pendingPurchases: [],
    commitment: null,
    prizes: [lotteryPrize(), beaconPrize()],
    ...overrides,
  };
}

const COMMITMENT = { root: "ab".repeat(32), size: 120, salt: "cd".repeat(16), frozenAt: "2026-12-24T21:00:00.000Z", rule: "rifa-among-sold-v2" };

/** Prize 1 drawn from "12-34-0046": 0046 was not sold, 0050 wins. */
const DRAWN: AdminPrizeDraw = {
  source: 0,
  result: { kind: "lottery", result: "12-34-0046", publishedOn: "2026-12-24", officialUrl: "https://loteria.example/r/24" },
  drawnNumber: 46,
  winningNumber: 50,
  steps: [
    { step: "lastDigits", result: "12-34-0046", digits: 4, used: "0046", number: 46 },
    { step: "notSold", number: 46, next: 50 },
    { step: "wins", number: 50 },
  ],
  drawnAt: "2026-12-24T22:00:00.000Z",
  winner: {
    number: 50,
    displayName: "María P.",
    country: "venezuela",
    purchaseId: 77,
    reference: "RF-7K3M9Q2X",
    customerName: "María José Pérez",
    customerEmail: "maria@example.com",
    customerPhone: "04141234567",
  },
};

const claim = (daysLeft: number, delivered: { at: string; photo: string | null } | null = null) => ({
  deadline: "2027-01-23T22:00:00.000Z",
  daysLeft,
  deliveredAt: delivered?.at ?? null,
  deliveryPhoto: delivered?.photo ?? null,
});

type Call = { url: string; method: string; body: unknown };

/** Answers GET of the draw with `view`, and writes with what `write` returns (the new view by default). */
function stubApi(view: AdminDrawView, write: (call: Call) => Response = () => new Response(JSON.stringify(view))) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      return call.method === "GET" ? new Response(JSON.stringify(view)) : write(call);
    }),
  );
  return calls;
}

const writes = (calls: Call[]) => calls.filter((c) => c.method !== "GET");

async function openDialog(locale: "es" | "en" = "es") {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <DrawDialog raffle={{ id: 1, title: "Moto" }} onClose={vi.fn()} />
      </Intl>
    </SWRConfig>,
  );
  await screen.findByTestId("draw-results");
}

describe("the prizes editor", () => {
  it("lists the prizes in order with their sources, and saves them reordered in the contract's shape", async () => {
    const calls = stubApi(viewFixture());
    await openDialog();
    expect(screen.getByTestId("prize-title-0")).toHaveValue("Moto");
    expect(screen.getByTestId("prize-title-1")).toHaveValue("Televisor");
    expect(within(screen.getByTestId("prize-source-kind-0")).getByRole("radio", { name: "Lotería" })).toHaveAttribute("aria-checked", "true");
    expect(within(screen.getByTestId("prize-source-kind-1")).getByRole("radio", { name: "Baliza drand" })).toHaveAttribute("aria-checked", "true");
    expect(screen.getByLabelText("Ronda de drand (quicknet) *")).toHaveValue(12_345_678);
    expect(screen.getByLabelText("Página donde publica sus resultados *")).toHaveValue("https://loteria.example/resultados");
    // Nothing changed yet: nothing to save.
    expect(screen.getByTestId("save-prizes")).toBeDisabled();

    fireEvent.click(screen.getByRole("button", { name: "Bajar el premio 1" }));
    expect(screen.getByTestId("prize-title-0")).toHaveValue("Televisor");
    fireEvent.click(screen.getByTestId("save-prizes"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toEqual({
      url: "/api/admin/raffles/1/prizes",
      method: "PUT",
      body: {
        prizes: [
          { title: "Televisor", description: "", image: "https://img.example/tv.jpg", source: { kind: "beacon", round: 12_345_678 } },
          {
            title: "Moto",
            description: "Una moto 150cc",
            image: null,
            source: {
              kind: "lottery",
              lotteryName: "Lotería del Táchira",
              drawDate: "2026-12-24",
              drawTime: null,
              timeZone: "America/Caracas",
              sourceUrl: "https://loteria.example/resultados",
              digits: null,
              deadlineHours: null,
            },
          },
        ],
        rule: "rifa-among-sold-v2",
      },
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Premios guardados"));
  });

  it("adds a prize, switches it to a beacon and offers the first round after sales close", async () => {
    const calls = stubApi(viewFixture({ prizes: [] }));
    await openDialog();
    expect(screen.getByTestId("prizes-editor")).toHaveTextContent("Aún no hay premios");
    fireEvent.click(screen.getByRole("button", { name: "Agregar premio" }));
    fireEvent.change(screen.getByTestId("prize-title-0"), { target: { value: "Bicicleta" } });
    fireEvent.click(within(screen.getByTestId("prize-source-kind-0")).getByRole("radio", { name: "Baliza drand" }));
    const round = firstRoundAfterClose("2026-12-24T20:00:00.000Z");
    // Ten minutes past the close: the server's margin before the freeze.
    expect(round).toBe(firstRoundAfter("2026-12-24T20:10:00.000Z"));
    expect(screen.getByText(`La primera ronda después del cierre de ventas es la ${round}.`)).toBeInTheDocument();
    // A round drand publishes while numbers are still sold is pointed out.
    fireEvent.change(screen.getByLabelText("Ronda de drand (quicknet) *"), { target: { value: String(round - 1) } });
    expect(screen.getByTestId("round-early-0")).toHaveTextContent("Se publica antes del cierre de ventas");
    fireEvent.click(screen.getByRole("button", { name: "Usar esa ronda" }));
    expect(screen.getByLabelText("Ronda de drand (quicknet) *")).toHaveValue(round);
    expect(screen.getByLabelText("Ronda de drand (quicknet) *")).toHaveAccessibleDescription(`Esa ronda se publica el ${formatDateTime(quicknetRoundTime(round), "es")}.`);
    expect(screen.queryByTestId("round-early-0")).toBeNull();
    fireEvent.click(screen.getByTestId("save-prizes"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.body).toEqual({ prizes: [{ title: "Bicicleta", description: "", image: null, source: { kind: "beacon", round } }], rule: "rifa-among-sold-v2" });
  });

  it("offers the two fair rules, among the sold numbers first, and sends the one chosen with a lottery's digits and deadline", async () => {
    const calls = stubApi(viewFixture({ prizes: [lotteryPrize()] }));
    await openDialog();
    const select = screen.getByLabelText("Regla del sorteo");
    expect(select).toHaveValue("rifa-among-sold-v2");
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual(["Entre los números vendidos", "El número de la lotería es el ganador"]);
    fireEvent.change(select, { target: { value: "rifa-number-v2" } });
    fireEvent.change(screen.getByLabelText("Plazo para registrar el resultado (horas)"), { target: { value: "200" } });
    fireEvent.click(screen.getByTestId("save-prizes"));
    expect(await screen.findByText("Debe estar entre 1 y 168")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText("Plazo para registrar el resultado (horas)"), { target: { value: "48" } });
    fireEvent.change(screen.getByLabelText("Cifras del resultado que se leen"), { target: { value: "6" } });
    fireEvent.click(screen.getByTestId("save-prizes"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.body).toMatchObject({ rule: "rifa-number-v2", prizes: [{ source: { kind: "lottery", digits: 6, deadlineHours: 48 } }] });
  });

  it("shows the first rule read-only for an old raffle, and the rule locked after a purchase", async () => {
    const calls = stubApi(viewFixture({ rule: "rifa-rule-v1" }));
    await openDialog();
    expect(screen.getByLabelText("Regla del sorteo")).toBeDisabled();
    expect(screen.getByLabelText("Regla del sorteo")).toHaveDisplayValue("Siguiente número vendido hacia arriba (regla anterior)");
    fireEvent.click(screen.getByRole("button", { name: "Bajar el premio 1" }));
    fireEvent.click(screen.getByTestId("save-prizes"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.body).not.toHaveProperty("rule");
  });

  it("sends the lottery's local time and clock, and shows the server's 'after the close' on the date", async () => {
    const calls = stubApi(
      viewFixture(),
      () =>
        new Response(
          JSON.stringify({ code: "validation_failed", message: "Datos inválidos", fields: { "prizes[1].source.drawDate": "Debe ser después de 2026-12-24 16:00" } }),
          { status: 422 },
        ),
    );
    await openDialog();
    fireEvent.click(screen.getByRole("button", { name: "Bajar el premio 1" }));
    expect(screen.getByTestId("prize-time-zone-1")).toHaveValue("America/Caracas");
    fireEvent.change(screen.getByTestId("prize-draw-time-1"), { target: { value: "21:45" } });
    fireEvent.change(screen.getByTestId("prize-time-zone-1"), { target: { value: "America/Bogota" } });
    expect(within(screen.getByTestId("prize-time-zone-1")).getByRole("option", { name: "Buenos Aires (America/Argentina/Buenos_Aires)" })).toBeInTheDocument();
    fireEvent.click(screen.getByTestId("save-prizes"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    const sent = writes(calls)[0]!.body as { prizes: { source: Record<string, unknown> }[] };
    expect(sent.prizes[1]!.source).toMatchObject({ kind: "lottery", drawDate: "2026-12-24", drawTime: "21:45", timeZone: "America/Bogota" });
    expect(await screen.findByText("Debe ser después de 2026-12-24 16:00")).toBeInTheDocument();
    expect(screen.getByTestId("prize-draw-time-1")).toHaveAccessibleDescription(/hora local de la lotería/);
  });

  it("refuses a prize without a title or a lottery link before asking the server", async () => {
    const calls = stubApi(viewFixture());
    await openDialog();
    fireEvent.change(screen.getByTestId("prize-title-0"), { target: { value: " " } });
    fireEvent.change(screen.getByLabelText("Página donde publica sus resultados *"), { target: { value: "" } });
    fireEvent.click(screen.getByTestId("save-prizes"));
    await waitFor(() => expect(screen.getByTestId("prize-title-0")).toHaveAttribute("aria-invalid", "true"));
    expect(screen.getAllByText("Este campo es obligatorio")).toHaveLength(2);
    expect(writes(calls)).toHaveLength(0);
  });

  it("puts the server's field messages next to the fields they name", async () => {
    stubApi(
      viewFixture(),
      () =>
        new Response(
          JSON.stringify({
            code: "validation_failed",
            message: "Datos inválidos",
            fields: { "prizes[0].source.sourceUrl": "URL no válida", "prizes[1].source.round": "Debe estar entre 1 y 999999999999", "prizes[1].title": "Debe tener al menos 2 caracteres" },
          }),
          { status: 422 },
        ),
    );
    await openDialog();
    fireEvent.change(screen.getByTestId("prize-title-1"), { target: { value: "TV" } });
    fireEvent.click(screen.getByTestId("save-prizes"));
    expect(await screen.findByText("URL no válida")).toBeInTheDocument();
    expect(screen.getByLabelText("Página donde publica sus resultados *")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Debe estar entre 1 y 999999999999")).toBeInTheDocument();
    expect(screen.getByLabelText("Ronda de drand (quicknet) *")).toHaveAccessibleDescription("Debe estar entre 1 y 999999999999");
    expect(screen.getByTestId("prize-title-1")).toHaveAccessibleDescription("Debe tener al menos 2 caracteres");
    expect(toast.error).toHaveBeenCalledWith("Error al guardar los premios", { description: "Datos inválidos" });
  });

  it("is read-only once a purchase exists, saying why", async () => {
    stubApi(viewFixture({ rulesLocked: true, salesOpen: true }));
    await openDialog();
    expect(screen.getByTestId("prizes-locked")).toHaveTextContent(
      "Las reglas y los premios no pueden cambiar después de la primera compra; un cambio requiere una nueva rifa.",
    );
    expect(screen.queryByTestId("prizes-editor")).toBeNull();
    expect(screen.queryByTestId("save-prizes")).toBeNull();
    // The prizes are still shown, with their sources.
    expect(screen.getByTestId("prize-card-1")).toHaveTextContent("Moto");
    expect(screen.getByTestId("prize-source-1")).toHaveTextContent("Lotería del Táchira, sorteo del 24 de diciembre de 2026");
    expect(screen.getByTestId("prize-source-2")).toHaveTextContent(`drand quicknet, ronda 12345678 (${formatDateTime(quicknetRoundTime(12_345_678), "es")})`);
  });

  it("says it in English too", async () => {
    stubApi(viewFixture({ rulesLocked: true }));
    await openDialog("en");
    expect(screen.getByTestId("prizes-locked")).toHaveTextContent("The rules and the prizes cannot change after the first purchase; a change needs a new raffle.");
  });
});

describe("freezing the list of numbers", () => {
  it("is blocked while purchases are pending, listing them with where to decide them", async () => {
    stubApi(
      viewFixture({
        rulesLocked: true,
        pendingPurchases: [
          { id: 5, reference: "RF-AAAA1111", customerName: "Ana Pérez", createdAt: "2026-12-24T19:00:00.000Z" },
          { id: 6, reference: "RF-BBBB2222", customerName: "Luis Gil", createdAt: "2026-12-24T19:30:00.000Z" },
        ],
      }),
    );
    await openDialog();
    const pending = screen.getByTestId("draw-pending-purchases");
    expect(pending).toHaveTextContent("2 compras pendientes");
    expect(pending).toHaveTextContent("Apruébalas o recházalas en la pestaña Verificar compras");
    const rows = within(pending).getAllByTestId("draw-pending-purchase");
    expect(rows[0]).toHaveTextContent(`RF-AAAA1111Ana Pérez${formatDateTime("2026-12-24T19:00:00.000Z", "es", "short")}`);
    expect(rows).toHaveLength(2);
    expect(screen.getByTestId("freeze-draw")).toBeDisabled();
  });

  it("is blocked while sales are open, and without prizes", async () => {
    stubApi(viewFixture({ salesOpen: true, prizes: [] }));
    await openDialog();
    expect(screen.getByTestId("draw-sales-state")).toHaveTextContent("Ventas abiertas");
    expect(screen.getByTestId("draw-freeze")).toHaveTextContent("La lista se congela cuando cierren las ventas.");
    expect(screen.getByTestId("draw-freeze")).toHaveTextContent("Guarda al menos un premio antes de congelar la lista.");
    expect(screen.getByTestId("freeze-draw")).toBeDisabled();
  });

  it("asks first, then freezes and shows the published root", async () => {
    const frozen = viewFixture({ rulesLocked: true, commitment: COMMITMENT });
    const calls = stubApi(viewFixture({ rulesLocked: true }), () => new Response(JSON.stringify(frozen)));
    await openDialog();
    expect(screen.getByTestId("draw-sales-close")).toHaveTextContent(formatDateTime("2026-12-24T20:00:00.000Z", "es"));
    fireEvent.click(screen.getByTestId("freeze-draw"));
    const confirm = screen.getByTestId("freeze-dialog");
    expect(confirm).toHaveTextContent("Es irreversible");
    expect(confirm).toHaveTextContent("Cada comprador recibe un correo con el comprobante");
    expect(writes(calls)).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId("confirm-freeze"));
    expect(await screen.findByTestId("commitment-root")).toHaveTextContent(COMMITMENT.root);
    expect(writes(calls)[0]).toMatchObject({ url: "/api/admin/raffles/1/draw/freeze", method: "POST" });
    expect(screen.getByTestId("commitment-size")).toHaveTextContent("120");
    expect(screen.getByTestId("commitment-frozen-at")).toHaveTextContent(formatDateTime(COMMITMENT.frozenAt, "es"));
    expect(screen.queryByTestId("freeze-draw")).toBeNull();
    expect(screen.queryByTestId("freeze-dialog")).toBeNull();
    expect(toast.success).toHaveBeenCalledWith("Lista de números congelada");
  });

  it("reads the draw again when the server refuses the freeze", async () => {
    const calls = stubApi(
      viewFixture({ rulesLocked: true }),
      () => new Response('{"code":"draw_purchases_pending","message":"Hay compras pendientes por decidir"}', { status: 409 }),
    );
    await openDialog();
    fireEvent.click(screen.getByTestId("freeze-draw"));
    fireEvent.click(screen.getByTestId("confirm-freeze"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Error al congelar la lista", { description: "Hay compras pendientes por decidir" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "GET")).toHaveLength(2));
  });
});

describe("recording results", () => {
  it("waits for the freeze", async () => {
    stubApi(viewFixture({ rulesLocked: true }));
    await openDialog();
    expect(screen.getByTestId("result-blocked-1")).toHaveTextContent("Podrás registrar el resultado cuando la lista de números esté congelada.");
    expect(screen.getByTestId("result-input-1")).toBeDisabled();
    expect(screen.getByTestId("record-result-1")).toBeDisabled();
    expect(screen.getByTestId("record-result-2")).toBeDisabled();
  });

  it("takes results in any order once frozen: prizes settle in order on the server", async () => {
    stubApi(viewFixture({ rulesLocked: true, commitment: COMMITMENT }));
    await openDialog();
    expect(screen.queryByTestId("result-blocked-1")).toBeNull();
    expect(screen.getByTestId("record-result-1")).toBeEnabled();
    expect(screen.queryByTestId("result-blocked-2")).toBeNull();
    expect(screen.getByTestId("record-result-2")).toBeEnabled();
  });

  it("shows a lottery's deadline and fallback round, its recorded result, and the fallback round's form when the draw awaits it", async () => {
    const source = {
      kind: "lottery" as const,
      lotteryName: "Lotería del Táchira",
      drawDate: "2026-12-24",
      drawTime: "19:45",
      timeZone: "America/Caracas",
      sourceUrl: "https://loteria.example/resultados",
      deadlineHours: 24,
      deadline: "2026-12-25T23:45:00.000Z",
      fallbackRound: 35_146_512,
    };
    const recorded = { source: 0, result: { kind: "lottery" as const, result: "0047", publishedOn: "2026-12-24", officialUrl: "https://loteria.example/r" }, recordedAt: "2026-12-25T01:00:00.000Z" };
    const calls = stubApi(
      viewFixture({ rulesLocked: true, commitment: COMMITMENT, rule: "rifa-number-v2", prizes: [lotteryPrize({ source, results: [recorded] }), beaconPrize()], awaiting: { prizeId: 11, source: 1 } }),
    );
    await openDialog();
    expect(screen.getByTestId("prize-chain-1")).toHaveTextContent(`Plazo para registrar el resultado: ${formatDateTime(source.deadline, "es")}`);
    expect(screen.getByTestId("prize-fallback-round-1")).toHaveTextContent("Ronda de respaldo de drand: 35146512");
    expect(screen.getByTestId("recorded-result-1-0")).toHaveTextContent("Fuente propia: 0047");
    expect(screen.getByTestId("result-fallback-1")).toHaveTextContent("decide la ronda de respaldo de drand 35146512");
    expect(within(screen.getByTestId("result-form-1")).getByLabelText("Firma de la ronda de respaldo 35146512")).toBeInTheDocument();
    fireEvent.click(screen.getByTestId("record-result-1"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toEqual({ url: "/api/admin/raffles/1/prizes/11/result", method: "POST", body: { kind: "beacon", signature: null } });
  });

  it("says a prize with its result recorded waits for the earlier ones", async () => {
    const recorded = { source: 0, result: { kind: "beacon" as const, round: 12_345_678, randomness: "ab".repeat(32), signature: "cd".repeat(48) }, recordedAt: "2026-12-25T01:00:00.000Z" };
    stubApi(viewFixture({ rulesLocked: true, commitment: COMMITMENT, prizes: [lotteryPrize(), beaconPrize({ results: [recorded] })], awaiting: { prizeId: 11, source: 0 } }));
    await openDialog();
    expect(screen.getByTestId("result-waiting-2")).toHaveTextContent("El premio se sortea cuando se decidan los premios anteriores");
    expect(screen.getByTestId("recorded-result-2-0")).toHaveTextContent("Ronda 12345678");
    expect(screen.queryByTestId("record-result-2")).toBeNull();
  });

  /** Prize 1's "12-34-0046" gives 0046 to María; prize 2's round, recorded first, leaves it without a winner. */
  const PREVIEW: ResultPreview = {
    prizes: [
      { prizeId: 11, position: 1, title: "Moto", outcome: "winner", winningNumber: 46, displayName: "María G." },
      { prizeId: 12, position: 2, title: "Televisor", outcome: "noWinner" },
    ],
  };
  const PREVIEW_URL = "/api/admin/raffles/1/prizes/11/result/preview";
  const RESULT = { result: "12-34-0046", publishedOn: "2026-12-24", officialUrl: "https://loteria.example/resultados" };

  /** Answers the preview with `preview` and the result with the view. */
  function stubPreview(preview: Response | (() => Response) = () => new Response(JSON.stringify(PREVIEW))) {
    const view = viewFixture({ rulesLocked: true, commitment: COMMITMENT });
    return stubApi(view, (call) => (call.url.endsWith("/preview") ? (typeof preview === "function" ? preview() : preview) : new Response(JSON.stringify(view))));
  }

  async function enterResult(locale: "es" | "en" = "es") {
    await openDialog(locale);
    fireEvent.change(screen.getByTestId("result-input-1"), { target: { value: " 12-34-0046 " } });
    fireEvent.click(screen.getByTestId("record-result-1"));
  }

  it("shows what a lottery result decides before recording anything", async () => {
    const calls = stubPreview();
    await openDialog();
    const form = screen.getByTestId("result-form-1");
    expect(within(form).getByLabelText("Enlace oficial del resultado *")).toHaveValue("https://loteria.example/resultados");
    expect(form).toHaveTextContent("se leen sus últimas 4 cifras");
    fireEvent.change(screen.getByTestId("result-input-1"), { target: { value: " 12-34-0046 " } });
    fireEvent.click(screen.getByTestId("record-result-1"));
    const confirm = await screen.findByTestId("result-confirm-dialog");
    // The day and link start from the prize's source; only the preview was asked.
    expect(writes(calls)).toEqual([{ url: PREVIEW_URL, method: "POST", body: RESULT }]);
    expect(within(confirm).getByRole("heading")).toHaveTextContent("¿Registrar este resultado?");
    expect(confirm).toHaveTextContent("Con el resultado «12-34-0046», publicado el");
    expect(within(confirm).getByTestId("result-preview-1")).toHaveTextContent("Premio 1 «Moto»: gana el 0046 (María G.)");
    expect(within(confirm).getByTestId("result-preview-2")).toHaveTextContent("Premio 2 «Televisor»: queda sin ganador");
    expect(within(confirm).getByTestId("result-confirm-final")).toHaveTextContent("Un resultado registrado no se puede cambiar.");
    expect(within(confirm).getByRole("button", { name: "Volver" })).toBeInTheDocument();
    expect(within(confirm).getByRole("button", { name: "Confirmar y registrar" })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("says when a prize would wait for its fallback round or its own lottery, in English too", async () => {
    const preview: ResultPreview = {
      prizes: [
        { prizeId: 11, position: 1, title: "Moto", outcome: "awaiting", source: 1 },
        { prizeId: 12, position: 2, title: "TV", outcome: "awaiting", source: 0 },
      ],
    };
    stubPreview(() => new Response(JSON.stringify(preview)));
    await enterResult("en");
    const confirm = await screen.findByTestId("result-confirm-dialog");
    expect(within(confirm).getByTestId("result-preview-1")).toHaveTextContent("Prize 1 “Moto”: waits for the drand fallback round");
    expect(within(confirm).getByTestId("result-preview-2")).toHaveTextContent("Prize 2 “TV”: waits for its lottery's result");
    expect(confirm).toHaveTextContent("A recorded result cannot be changed.");
    expect(within(confirm).getByRole("button", { name: "Back" })).toBeInTheDocument();
    expect(within(confirm).getByRole("button", { name: "Confirm and record" })).toBeInTheDocument();
  });

  it("records nothing when the admin goes back", async () => {
    const calls = stubPreview();
    await enterResult();
    fireEvent.click(within(await screen.findByTestId("result-confirm-dialog")).getByRole("button", { name: "Volver" }));
    await waitFor(() => expect(screen.queryByTestId("result-confirm-dialog")).toBeNull());
    expect(writes(calls)).toEqual([{ url: PREVIEW_URL, method: "POST", body: RESULT }]);
    expect(screen.getByTestId("result-input-1")).toHaveValue(" 12-34-0046 ");
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("records the result shown once confirmed", async () => {
    const calls = stubPreview();
    await enterResult();
    fireEvent.click(within(await screen.findByTestId("result-confirm-dialog")).getByRole("button", { name: "Confirmar y registrar" }));
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
    expect(writes(calls)[1]).toEqual({ url: "/api/admin/raffles/1/prizes/11/result", method: "POST", body: { kind: "lottery", ...RESULT } });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Resultado registrado"));
    await waitFor(() => expect(screen.queryByTestId("result-confirm-dialog")).toBeNull());
  });

  it("puts the preview's field refusals on the form, and asks nothing", async () => {
    const body = '{"code":"validation_failed","message":"Revisa los datos.","fields":{"publishedOn":"El resultado no puede publicarse antes del sorteo de la lotería."}}';
    const calls = stubPreview(() => new Response(body, { status: 422 }));
    await enterResult();
    const day = within(screen.getByTestId("result-form-1")).getByLabelText("Fecha de publicación *");
    await waitFor(() => expect(day).toHaveAttribute("aria-invalid", "true"));
    expect(day).toHaveAccessibleDescription("El resultado no puede publicarse antes del sorteo de la lotería.");
    expect(toast.error).toHaveBeenCalledWith("Error al registrar el resultado", { description: "Revisa los datos." });
    expect(screen.queryByTestId("result-confirm-dialog")).toBeNull();
    expect(writes(calls)).toHaveLength(1);
  });

  it("tells a preview the server refuses (409) in its words and reads the draw again", async () => {
    const message = "El resultado de este premio ya está registrado.";
    const calls = stubPreview(() => new Response(JSON.stringify({ code: "prize_result_already_recorded", message }), { status: 409 }));
    await enterResult();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Error al registrar el resultado", { description: message }));
    await waitFor(() => expect(calls.filter((c) => c.method === "GET")).toHaveLength(2));
    expect(screen.queryByTestId("result-confirm-dialog")).toBeNull();
    expect(writes(calls)).toHaveLength(1);
  });

  it("refuses a result the rule cannot read, in the server's words", async () => {
    const calls = stubApi(viewFixture({ rulesLocked: true, commitment: COMMITMENT }));
    await openDialog();
    fireEvent.change(screen.getByTestId("result-input-1"), { target: { value: "12a4" } });
    fireEvent.click(screen.getByTestId("record-result-1"));
    expect(await screen.findByText("Debe ser un número")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it("lets the server fetch a beacon round when no signature is given", async () => {
    const calls = stubApi(viewFixture({ rulesLocked: true, commitment: COMMITMENT, prizes: [lotteryPrize({ draw: DRAWN, claim: claim(30) }), beaconPrize()] }));
    await openDialog();
    expect(screen.getByTestId("record-result-2")).toBeEnabled();
    fireEvent.click(screen.getByTestId("record-result-2"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toEqual({ url: "/api/admin/raffles/1/prizes/12/result", method: "POST", body: { kind: "beacon", signature: null } });
  });

  const beaconTurn = () => viewFixture({ rulesLocked: true, commitment: COMMITMENT, prizes: [lotteryPrize({ draw: DRAWN, claim: claim(30) }), beaconPrize()] });

  it("puts drand's refusal of a pasted signature on the field", async () => {
    const calls = stubApi(beaconTurn(), () => new Response('{"code":"beacon_signature_invalid","message":"La firma no es la de la ronda 12345678 de drand.","round":12345678}', { status: 422 }));
    await openDialog();
    fireEvent.change(screen.getByTestId("result-input-2"), { target: { value: " ab12 " } });
    fireEvent.click(screen.getByTestId("record-result-2"));
    await waitFor(() => expect(screen.getByTestId("result-input-2")).toHaveAccessibleDescription("La firma no es la de la ronda 12345678 de drand."));
    expect(writes(calls)[0]!.body).toEqual({ kind: "beacon", signature: "ab12" });
    expect(toast.error).toHaveBeenCalledWith("Error al registrar el resultado", { description: "La firma no es la de la ronda 12345678 de drand." });
  });

  it.each([
    [409, '{"code":"beacon_round_not_yet","message":"La ronda 12345678 de drand todavía no se ha publicado.","round":12345678,"publishedAt":"2024-08-23T15:09:27.000Z"}', "La ronda 12345678 de drand todavía no se ha publicado."],
    [503, '{"code":"beacon_unavailable","message":"No se pudo obtener la ronda de drand en este momento. Inténtalo más tarde o pega su firma."}', "No se pudo obtener la ronda de drand en este momento. Inténtalo más tarde o pega su firma."],
  ])("tells a round the server could not get (%i) in the server's words", async (status, body, message) => {
    stubApi(beaconTurn(), () => new Response(body, { status }));
    await openDialog();
    fireEvent.click(screen.getByTestId("record-result-2"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Error al registrar el resultado", { description: message }));
    expect(screen.getByTestId("result-input-2")).not.toHaveAttribute("aria-invalid");
  });
});

describe("a drawn prize", () => {
  const drawn = () => viewFixture({ rulesLocked: true, commitment: COMMITMENT, prizes: [lotteryPrize({ draw: DRAWN, claim: claim(12) }), beaconPrize()] });

  it("shows the number drawn, the steps in words, the winning number and the winner's contact", async () => {
    stubApi(drawn());
    await openDialog();
    expect(screen.getByTestId("winning-number-1")).toHaveTextContent("0050");
    expect(screen.queryByTestId("result-input-1")).toBeNull();
    const steps = within(screen.getByTestId("draw-steps-1")).getAllByRole("listitem").map((li) => li.textContent);
    expect(steps).toEqual([
      "El resultado «12-34-0046» termina en 0046 (sus últimas 4 cifras): el número 0046.",
      "El número 0046 no se vendió: el siguiente vendido hacia arriba es el 0050.",
      "Gana el número 0050.",
    ]);
    const winner = screen.getByTestId("winner-1");
    for (const text of ["María José Pérez", "María P.", "maria@example.com", "04141234567", "Venezuela", "RF-7K3M9Q2X"]) expect(winner).toHaveTextContent(text);
    expect(within(winner).getByRole("link", { name: "maria@example.com" })).toHaveAttribute("href", "mailto:maria@example.com");
    expect(screen.getByTestId("winner-purchase-1")).toHaveTextContent("Ver compra RF-7K3M9Q2X");
  });

  it("tells the steps in English", async () => {
    stubApi(drawn());
    await openDialog("en");
    const steps = within(screen.getByTestId("draw-steps-1")).getAllByRole("listitem").map((li) => li.textContent);
    expect(steps).toEqual([
      "The result “12-34-0046” ends in 0046 (its last 4 digits): number 0046.",
      "Number 0046 was not sold: the next sold number upward is 0050.",
      "Number 0050 wins.",
    ]);
  });

  it("writes the numbers as the raffle's tickets, though the rule reads fewer digits", async () => {
    // A 999-number raffle: the rule reads 3 digits, the site writes tickets with 4 ("0046").
    const draw: AdminPrizeDraw = {
      ...DRAWN,
      result: { kind: "lottery", result: "12-34-5046", publishedOn: "2026-12-24", officialUrl: "https://loteria.example/r/24" },
      drawnNumber: 46,
      winningNumber: 46,
      steps: [
        { step: "lastDigits", result: "12-34-5046", digits: 3, used: "046", number: 46 },
        { step: "wins", number: 46 },
      ],
    };
    stubApi(viewFixture({ maxTickets: 999, digitsUsed: 3, rulesLocked: true, commitment: COMMITMENT, prizes: [lotteryPrize({ draw, claim: claim(30) })] }));
    await openDialog();
    expect(screen.getByTestId("winning-number-1")).toHaveTextContent(/^0046$/);
    const steps = within(screen.getByTestId("draw-steps-1")).getAllByRole("listitem").map((li) => li.textContent);
    expect(steps).toEqual(["El resultado «12-34-5046» termina en 046 (sus últimas 3 cifras): el número 0046.", "Gana el número 0046."]);
  });

  it("says when nothing could win", async () => {
    const draw: AdminPrizeDraw = { ...DRAWN, winningNumber: null, winner: null, steps: [{ step: "wrappedAround" }, { step: "noWinner" }] };
    stubApi(viewFixture({ commitment: COMMITMENT, rulesLocked: true, prizes: [lotteryPrize({ draw })] }));
    await openDialog();
    expect(screen.getByTestId("winning-number-1")).toHaveTextContent("Sin ganador");
    expect(screen.getByTestId("draw-steps-1")).toHaveTextContent("No queda ningún número vendido que pueda ganar");
    expect(screen.queryByTestId("winner-1")).toBeNull();
  });
});

describe("the claim window", () => {
  const withClaim = (c: ReturnType<typeof claim>) => viewFixture({ rulesLocked: true, commitment: COMMITMENT, prizes: [lotteryPrize({ draw: DRAWN, claim: c })] });

  it.each([
    [12, "Quedan 12 días", "open", "bg-secondary"],
    [5, "Quedan 5 días", "urgent", "bg-danger-strong"],
    [1, "Queda 1 día", "urgent", "bg-danger-strong"],
    [0, "Vencido", "expired", "bg-danger-strong"],
    [-3, "Vencido", "expired", "bg-danger-strong"],
  ])("with %i days left reads '%s' (%s)", async (days, text, urgency, colour) => {
    stubApi(withClaim(claim(days)));
    await openDialog();
    const left = screen.getByTestId("days-left-1");
    expect(left).toHaveTextContent(text);
    expect(left).toHaveAttribute("data-urgency", urgency);
    expect(left.className).toContain(colour);
  });

  it("marks the prize delivered with a photo, then shows when and the photo", async () => {
    const delivered = withClaim(claim(10, { at: "2026-12-28T15:00:00.000Z", photo: "https://img.example/entrega.jpg" }));
    const calls = stubApi(withClaim(claim(10)), () => new Response(JSON.stringify(delivered)));
    await openDialog();
    fireEvent.change(screen.getByLabelText("Foto de la entrega"), { target: { value: " https://img.example/entrega.jpg " } });
    fireEvent.click(screen.getByTestId("mark-delivered-1"));
    const done = await screen.findByTestId("delivered-1");
    expect(writes(calls)[0]).toEqual({ url: "/api/admin/raffles/1/prizes/11/delivered", method: "POST", body: { photo: "https://img.example/entrega.jpg" } });
    expect(done).toHaveTextContent(`Entregado el ${formatDateTime("2026-12-28T15:00:00.000Z", "es")}`);
    expect(within(done).getByRole("img", { name: "Foto de la entrega de Moto" })).toHaveAttribute("src", "https://img.example/entrega.jpg");
    expect(screen.queryByTestId("mark-delivered-1")).toBeNull();
    expect(screen.queryByTestId("days-left-1")).toBeNull();
  });

  it("sends no photo when none is given", async () => {
    const calls = stubApi(withClaim(claim(10)));
    await openDialog();
    fireEvent.click(screen.getByTestId("mark-delivered-1"));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.body).toEqual({ photo: null });
  });
});

describe("the draw's rules", () => {
  it("names drand quicknet rounds by time, the first one after a moment included", () => {
    expect(quicknetRoundTime(1)).toBe("2023-08-23T15:09:27.000Z");
    const round = firstRoundAfter("2026-12-24T20:00:00.000Z");
    expect(Date.parse(quicknetRoundTime(round))).toBeGreaterThan(Date.parse("2026-12-24T20:00:00.000Z"));
    expect(Date.parse(quicknetRoundTime(round - 1))).toBeLessThanOrEqual(Date.parse("2026-12-24T20:00:00.000Z"));
    // Exactly at a round's time, that round is not "after".
    expect(firstRoundAfter(quicknetRoundTime(1000))).toBe(1001);
  });

  it("lists what blocks the freeze and which prize may be recorded", () => {
    expect(freezeBlockers(viewFixture({ salesOpen: true, prizes: [], pendingPurchases: [{ id: 1, reference: "R", customerName: "A", createdAt: "2026-12-24T19:00:00Z" }] }))).toEqual([
      "salesOpen",
      "pendingPurchases",
      "noPrizes",
    ]);
    expect(freezeBlockers(viewFixture())).toEqual([]);
    // Listed out of order, the prizes are still drawn by position.
    const view = viewFixture({ commitment: COMMITMENT, prizes: [beaconPrize(), lotteryPrize()] });
    // Results may be recorded in any order once frozen (issue 32): prizes settle in order on the server.
    expect(resultBlocker(view)).toBeNull();
    expect(resultBlocker(viewFixture())).toEqual({ reason: "notFrozen" });
    expect(claimUrgency(6)).toBe("open");
  });

  it("maps the server's prize field names to the editor's", () => {
    const fields = prizeServerFields(2);
    expect(fields["prizes[0].title"]).toBe("prizes.0.title");
    expect(fields["prizes[1].source.sourceUrl"]).toBe("prizes.1.sourceUrl");
    expect(fields["prizes[1].source.round"]).toBe("prizes.1.round");
    expect(fields["prizes[0].source.drawTime"]).toBe("prizes.0.drawTime");
    expect(fields["prizes[0].source.timeZone"]).toBe("prizes.0.timeZone");
    expect(fields["prizes[2].title"]).toBeUndefined();
  });
});
