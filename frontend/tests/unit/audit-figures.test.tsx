// 'Cifras por persona': each person's decisions, their median wait in words, the bars of every day
// and the busiest ones, in both languages; the empty range, a missing day, and the server's refusal
// of a range too long. The API is stubbed at fetch.
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { AuditFigures } from "@/components/admin/audit/audit-figures";
import type { DayRange } from "@/lib/admin/audit-figures";
import { swrConfig } from "@/lib/api/fetcher";
import type { PersonFigures } from "@/lib/api/types";
import { Intl, storeAdminSession } from "./intl";

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const JANUARY: DayRange = { from: "2026-01-01", to: "2026-01-30" };
const OFFSET = -new Date().getTimezoneOffset();

const PEOPLE: PersonFigures[] = [
  {
    actorId: 2,
    actor: "ana",
    decisions: 14,
    perDay: [
      { date: "2026-01-03", decisions: 2 },
      { date: "2026-01-12", decisions: 6 },
      { date: "2026-01-15", decisions: 4 },
      { date: "2026-01-30", decisions: 2 },
    ],
    medianProofToDecisionSeconds: 65 * 60,
  },
  { actorId: 3, actor: "luis", decisions: 3, perDay: [{ date: "2026-01-20", decisions: 3 }], medianProofToDecisionSeconds: 12 * 60 + 10 },
  { actorId: 4, actor: "marta", decisions: 2, perDay: [{ date: "2026-01-02", decisions: 2 }], medianProofToDecisionSeconds: 51 * 3600 + 12 * 60 },
  // Every decision of hers was on a purchase without a proof.
  { actorId: 5, actor: "sofia", decisions: 1, perDay: [{ date: "2026-01-29", decisions: 1 }], medianProofToDecisionSeconds: null },
];

/** The figures by query (after "?"): a list, or an error status with the server's message. */
function stubApi(answers: Record<string, PersonFigures[] | { status: number; message: string }>) {
  const asked: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(url);
      const answer = answers[url.slice(url.indexOf("?") + 1)];
      if (answer === undefined) return new Response("[]");
      if (Array.isArray(answer)) return new Response(JSON.stringify(answer));
      return new Response(JSON.stringify({ code: "validation_failed", message: answer.message, fields: { to: answer.message } }), { status: answer.status });
    }),
  );
  return asked;
}

const query = (range: DayRange) => `from=${range.from}&to=${range.to}&utcOffsetMinutes=${OFFSET}`;

/** The section with the range held as the tab holds it. */
function Harness({ initial }: { initial: DayRange }) {
  const [range, setRange] = useState(initial);
  return <AuditFigures range={range} onRangeChange={setRange} />;
}

function show(initial: DayRange = JANUARY, locale: "es" | "en" = "es") {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl locale={locale}>
        <Harness initial={initial} />
      </Intl>
    </SWRConfig>,
  );
}

const person = (actor: string) => screen.getByTestId("figures-people").querySelector<HTMLElement>(`[data-testid=figures-person][data-actor="${actor}"]`)!;
const figure = (actor: string, id: string) => within(person(actor)).getByTestId(id).textContent;

describe("the per-person figures", () => {
  it("shows each person, busiest first, with decisions, the median wait in words, a bar per day and the busiest days", async () => {
    const asked = stubApi({ [query(JANUARY)]: PEOPLE });
    show();
    await screen.findByTestId("figures-people");
    expect(asked).toEqual([`/api/admin/audit/figures?${query(JANUARY)}`]);
    expect(screen.getAllByTestId("figures-person").map((p) => p.dataset.actor)).toEqual(["ana", "luis", "marta", "sofia"]);
    expect(screen.getByTestId("figures-shown")).toHaveTextContent("4 personas decidieron compras");

    expect(["ana", "luis", "marta", "sofia"].map((a) => figure(a, "figures-decisions"))).toEqual(["14", "3", "2", "1"]);
    expect(["ana", "luis", "marta"].map((a) => figure(a, "figures-wait"))).toEqual(["1 h 5 min", "12 min", "2 d 3 h"]);
    // No proof among her decisions: a dash, explained to a screen reader and on hover.
    const none = within(person("sofia")).getByTestId("figures-wait");
    expect(within(none).getByText("—")).toHaveAttribute("aria-hidden");
    expect(none).toHaveTextContent("Ninguna de sus decisiones tenía comprobante");
    expect(none.querySelector("[title]")).toHaveAttribute("title", "Ninguna de sus decisiones tenía comprobante");

    // One bar for each of the 30 days, as tall as its share of her busiest day.
    const days = [...within(person("ana")).getByTestId("figures-bars").querySelectorAll<SVGGElement>("g[data-day]")];
    expect(days).toHaveLength(30);
    expect(days.filter((d) => d.dataset.decisions !== "0").map((d) => [d.dataset.day, d.querySelector("[data-testid=figures-bar]")!.getAttribute("height")])).toEqual([
      ["2026-01-03", String(2 / 6)],
      ["2026-01-12", "1"],
      ["2026-01-15", String(4 / 6)],
      ["2026-01-30", String(2 / 6)],
    ]);
    expect(days[11]!.querySelector("title")).toHaveTextContent("12 ene: 6 decisiones");
    expect(days[0]!.querySelector("title")).toHaveTextContent("1 ene: 0 decisiones");
    expect(person("ana")).toHaveTextContent("1 ene");
    expect(person("ana")).toHaveTextContent("30 ene");
    expect(figure("ana", "figures-busiest")).toBe("Días con más decisiones: 12 ene (6) · 15 ene (4) · 30 ene (2)");
    expect(figure("sofia", "figures-busiest")).toBe("Días con más decisiones: 29 ene (1)");
  });

  it("words them in English", async () => {
    stubApi({ [query(JANUARY)]: PEOPLE });
    show(JANUARY, "en");
    await screen.findByTestId("figures-people");
    expect(screen.getByRole("heading", { name: "Per-person figures" })).toBeInTheDocument();
    expect(screen.getByTestId("figures-shown")).toHaveTextContent("4 people decided purchases");
    expect(["ana", "luis", "marta"].map((a) => figure(a, "figures-wait"))).toEqual(["1 h 5 min", "12 min", "2 d 3 h"]);
    expect(figure("sofia", "figures-wait")).toContain("None of their decisions had a proof");
    expect(figure("ana", "figures-busiest")).toBe("Busiest days: Jan 12 (6) · Jan 15 (4) · Jan 30 (2)");
    expect(within(person("luis")).getByTestId("figures-bars").querySelector("[data-day='2026-01-20'] title")).toHaveTextContent("Jan 20: 3 decisions");
  });

  it("says when nobody decided a purchase between the days, and asks again when a day changes", async () => {
    const february = { from: "2026-02-01", to: "2026-02-28" };
    const asked = stubApi({ [query(JANUARY)]: [], [query(february)]: [PEOPLE[1]!] });
    show();
    expect(await screen.findByTestId("figures-empty")).toHaveTextContent("Nadie decidió compras entre estos días.");
    fireEvent.change(screen.getByLabelText("Desde el día"), { target: { value: "01/02/2026" } });
    fireEvent.change(screen.getByLabelText("Hasta el día"), { target: { value: "28/02/2026" } });
    await waitFor(() => expect(screen.getAllByTestId("figures-person").map((p) => p.dataset.actor)).toEqual(["luis"]));
    expect(asked.at(-1)).toBe(`/api/admin/audit/figures?${query(february)}`);
    expect(within(person("luis")).getByTestId("figures-bars").querySelectorAll("g[data-day]")).toHaveLength(28);
    expect(screen.getByTestId("figures-shown")).toHaveTextContent("1 persona decidió compras");
  });

  it("asks nothing while a day is missing, and says to choose it", async () => {
    const asked = stubApi({});
    show({ from: "", to: "2026-01-30" });
    expect(await screen.findByTestId("figures-pick")).toHaveTextContent("Elige el primer y el último día.");
    expect(asked).toEqual([]);
  });

  it("shows the server's refusal of a range too long clearly, not stale figures, with a retry", async () => {
    const long = { from: "2024-01-01", to: "2026-01-30" };
    const refusal = "Debe estar entre 2024-01-01 y 2024-12-31";
    const asked = stubApi({ [query(JANUARY)]: PEOPLE, [query(long)]: { status: 422, message: refusal } });
    show();
    await screen.findByTestId("figures-people");
    fireEvent.change(screen.getByLabelText("Desde el día"), { target: { value: "01/01/2024" } });
    const error = await screen.findByTestId("figures-error");
    expect(error).toHaveAttribute("role", "alert");
    expect(error).toHaveTextContent("No se pudieron cargar las cifras.");
    expect(error).toHaveTextContent(refusal);
    expect(screen.queryByTestId("figures-people")).toBeNull();
    expect(screen.queryByTestId("figures-shown")).toBeNull();
    fireEvent.click(within(error).getByRole("button", { name: "Reintentar" }));
    await waitFor(() => expect(asked.filter((u) => u.endsWith(query(long)))).toHaveLength(2));
    await screen.findByTestId("figures-error");
    cleanup();

    stubApi({ [query(long)]: { status: 422, message: "Must be between 2024-01-01 and 2024-12-31" } });
    show(long, "en");
    expect(await screen.findByTestId("figures-error")).toHaveTextContent("The figures could not be loaded.Must be between 2024-01-01 and 2024-12-31");
  });
});
