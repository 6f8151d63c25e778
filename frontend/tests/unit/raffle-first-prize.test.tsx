// Issue 31: a new raffle is created with its first prize and the result it is drawn from, or
// saved unpublished, and the panel says why in either language.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { RaffleDialog } from "@/components/admin/raffle-dialog";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

const toast = { success: vi.fn(), error: vi.fn(), warning: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: {
    success: (...a: unknown[]) => toast.success(...a),
    error: (...a: unknown[]) => toast.error(...a),
    warning: (...a: unknown[]) => toast.warning(...a),
    info: vi.fn(),
  },
}));

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  vi.unstubAllGlobals();
  for (const mock of Object.values(toast)) mock.mockReset();
});

function stubApi(answer: unknown) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify(answer), { status: 201 });
    }),
  );
  return bodies;
}

const open = (draws: boolean, locale: "es" | "en" = "es") =>
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <Intl locale={locale}>
        <RaffleDialog raffle={null} draws={draws} onClose={vi.fn()} onSaved={vi.fn()} />
      </Intl>
    </SWRConfig>,
  );

function fillRaffle(title: string, description: string) {
  const raffle = screen.getByTestId("raffle-dialog");
  const [titleField] = within(raffle).getAllByRole("textbox");
  fireEvent.change(titleField!, { target: { value: title } });
  fireEvent.change(screen.getByLabelText(/^Descripci[oó]n \*|^Description \*/), { target: { value: description } });
}

describe("a new raffle's first prize", () => {
  it("is the raffle itself by default, drawn by the first drand round after sales close", async () => {
    const bodies = stubApi(raffleFixture());
    open(true);
    fillRaffle("Moto 0km", "Una moto nueva");
    const prize = within(screen.getByTestId("first-prize"));
    expect(prize.getByLabelText("Título del premio *")).toHaveValue("Moto 0km");
    expect(prize.getByRole("radio", { name: "Baliza drand" })).toHaveAttribute("aria-checked", "true");
    // No suggestion to take: the round already is the first after sales close.
    expect(prize.queryByRole("button", { name: "Usar esa ronda" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Crear sorteo" }));

    await waitFor(() => expect(bodies).toHaveLength(1));
    const sent = bodies[0] as { title: string; prizes: { title: string; source: { kind: string; round: number } }[] };
    expect(sent.title).toBe("Moto 0km");
    expect(sent.prizes).toHaveLength(1);
    expect(sent.prizes[0]).toMatchObject({ title: "Moto 0km", source: { kind: "beacon" } });
    expect(sent.prizes[0]!.source.round).toBeGreaterThan(1);
    expect(toast.success).toHaveBeenCalledWith("Sorteo creado", { description: "Moto 0km" });
  });

  it("keeps its own title once typed and refuses an incomplete source without calling the server", async () => {
    const bodies = stubApi(raffleFixture());
    open(true);
    fillRaffle("Moto", "Una moto");
    const prize = within(screen.getByTestId("first-prize"));
    fireEvent.change(prize.getByLabelText("Título del premio *"), { target: { value: "Moto y casco" } });
    fireEvent.click(prize.getByRole("radio", { name: "Lotería" }));
    fillRaffle("Moto 0km", "Una moto");
    expect(prize.getByLabelText("Título del premio *")).toHaveValue("Moto y casco");
    fireEvent.click(screen.getByRole("button", { name: "Crear sorteo" }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Error al procesar el sorteo", { description: "Completa el primer premio y el resultado con el que se sortea." }));
    expect(prize.getByLabelText("Nombre de la lotería *")).toHaveAttribute("aria-invalid", "true");
    expect(bodies).toHaveLength(0);
  });

  it("without the draws permission says the raffle stays unpublished, and the answer's reason is shown", async () => {
    const reason = "Saved unpublished: a raffle goes on sale only with its first prize.";
    const bodies = stubApi({ ...raffleFixture({ status: "inactive", active: false }), keptUnpublished: { code: "raffle_kept_unpublished_without_prize", message: reason } });
    open(false, "en");
    const prize = within(screen.getByTestId("first-prize"));
    expect(prize.getByText(/Your role cannot set prizes/)).toBeInTheDocument();
    expect(prize.queryByRole("textbox")).toBeNull();
    fillRaffle("Moto", "A motorbike");
    fireEvent.click(screen.getByRole("button", { name: "Create raffle" }));

    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith("Raffle saved unpublished", { description: reason }));
    expect(bodies[0]).toMatchObject({ prizes: [] });
    expect(toast.success).not.toHaveBeenCalled();
  });
});
