// The per-person figures, their pure side: the days a range holds, the server's days with
// decisions laid over all of them, the busiest ones, and a median wait split for words.
import { describe, expect, it } from "vitest";
import { busiestDays, daysOf, defaultFiguresRange, perDaySeries, waitParts } from "@/lib/admin/audit-figures";

describe("the range", () => {
  it("opens on the last 30 local days, today included", () => {
    expect(defaultFiguresRange(new Date(2026, 2, 10, 23, 30))).toEqual({ from: "2026-02-09", to: "2026-03-10" });
    expect(defaultFiguresRange(new Date(2026, 0, 5, 0, 5))).toEqual({ from: "2025-12-07", to: "2026-01-05" });
  });

  it("holds every calendar day of it, across months, years and leap days", () => {
    expect(daysOf({ from: "2024-02-27", to: "2024-03-01" })).toEqual(["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(daysOf({ from: "2025-12-31", to: "2026-01-01" })).toEqual(["2025-12-31", "2026-01-01"]);
    expect(daysOf({ from: "2026-03-10", to: "2026-03-10" })).toEqual(["2026-03-10"]);
    expect(daysOf({ from: "2025-01-01", to: "2025-12-31" })).toHaveLength(365);
  });

  it("holds none when reversed or when a day is missing", () => {
    expect(daysOf({ from: "2026-03-10", to: "2026-03-09" })).toEqual([]);
    expect(daysOf({ from: "", to: "2026-03-09" })).toEqual([]);
  });
});

describe("decisions per day", () => {
  const range = { from: "2026-01-01", to: "2026-01-05" };

  it("puts the server's days in place and 0 on the days it leaves out", () => {
    const series = perDaySeries(
      [
        { date: "2026-01-02", decisions: 3 },
        { date: "2026-01-05", decisions: 1 },
      ],
      range,
    );
    expect(series).toEqual([
      { date: "2026-01-01", decisions: 0 },
      { date: "2026-01-02", decisions: 3 },
      { date: "2026-01-03", decisions: 0 },
      { date: "2026-01-04", decisions: 0 },
      { date: "2026-01-05", decisions: 1 },
    ]);
  });

  it("ignores a day outside the range (an answer for other days)", () => {
    expect(perDaySeries([{ date: "2025-12-31", decisions: 9 }], range).map((d) => d.decisions)).toEqual([0, 0, 0, 0, 0]);
  });

  it("names the busiest days, most first, the later one on a tie, never a day without any", () => {
    const series = perDaySeries(
      [
        { date: "2026-01-01", decisions: 2 },
        { date: "2026-01-02", decisions: 5 },
        { date: "2026-01-04", decisions: 2 },
        { date: "2026-01-05", decisions: 1 },
      ],
      range,
    );
    expect(busiestDays(series)).toEqual([
      { date: "2026-01-02", decisions: 5 },
      { date: "2026-01-04", decisions: 2 },
      { date: "2026-01-01", decisions: 2 },
    ]);
    expect(busiestDays(series, 1)).toEqual([{ date: "2026-01-02", decisions: 5 }]);
    expect(busiestDays(perDaySeries([], range))).toEqual([]);
  });
});

describe("the median wait", () => {
  it.each([
    [0, { unit: "seconds", seconds: 0 }],
    [45, { unit: "seconds", seconds: 45 }],
    [59.4, { unit: "seconds", seconds: 59 }],
    [59.6, { unit: "minutes", minutes: 1 }],
    [12 * 60 + 20, { unit: "minutes", minutes: 12 }],
    [12 * 60 + 31, { unit: "minutes", minutes: 13 }],
    // 59 min 40 s rounds into the next unit: "1 h", never "60 min".
    [59 * 60 + 40, { unit: "hours", hours: 1, minutes: 0 }],
    [65 * 60, { unit: "hours", hours: 1, minutes: 5 }],
    [23 * 3600 + 59 * 60 + 10, { unit: "hours", hours: 23, minutes: 59 }],
    [24 * 3600 - 20, { unit: "days", days: 1, hours: 0 }],
    [51 * 3600 + 12 * 60, { unit: "days", days: 2, hours: 3 }],
    [2 * 86_400 + 23 * 3600 + 40 * 60, { unit: "days", days: 3, hours: 0 }],
    [-5, { unit: "seconds", seconds: 0 }],
  ] as const)("splits %d s as %o", (seconds, parts) => {
    expect(waitParts(seconds)).toEqual(parts);
  });
});
