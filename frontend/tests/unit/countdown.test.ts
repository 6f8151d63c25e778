import { describe, expect, it } from "vitest";
import { FALLBACK_WINDOW_MS, countdownTarget, countdownTone, remaining } from "@/lib/countdown";

const DAY = 86_400_000;

describe("countdown target", () => {
  it("runs to the draw date when set, else to the end date", () => {
    expect(countdownTarget("2026-12-01T23:59:59.999Z", "2026-11-30T00:00:00.000Z")).toEqual({
      target: new Date("2026-12-01T23:59:59.999Z"),
      closedKind: "drawn",
    });
    expect(countdownTarget(null, "2026-11-30T00:00:00.000Z")).toEqual({ target: new Date("2026-11-30T00:00:00.000Z"), closedKind: "closed" });
    expect(countdownTarget(null, null).target).toBeNull();
  });
});

describe("remaining time", () => {
  const start = new Date("2026-11-01T00:00:00Z");
  const target = new Date("2026-11-11T00:00:00Z");

  it("splits into days, hours, minutes and seconds", () => {
    const left = remaining(target, new Date("2026-11-09T21:58:57Z"), start);
    expect([left.days, left.hours, left.minutes, left.seconds]).toEqual([1, 2, 1, 3]);
    expect(left.done).toBe(false);
  });

  it("measures the share from creation to the target", () => {
    expect(remaining(target, new Date("2026-11-06T00:00:00Z"), start).share).toBeCloseTo(0.5);
  });

  it("uses a 30-day window without a start", () => {
    const now = new Date(target.getTime() - 15 * DAY);
    expect(FALLBACK_WINDOW_MS).toBe(30 * DAY);
    expect(remaining(target, now, null).share).toBeCloseTo(0.5);
  });

  it("is done at zero and never negative", () => {
    const left = remaining(target, new Date(target.getTime() + 5000), start);
    expect(left.done).toBe(true);
    expect(left.totalMs).toBe(0);
  });
});

describe("colour thresholds", () => {
  it("is one colour above 40 %, another above 20 %, else danger", () => {
    expect(countdownTone(0.41)).toBe("success");
    expect(countdownTone(0.4)).toBe("warning");
    expect(countdownTone(0.21)).toBe("warning");
    expect(countdownTone(0.2)).toBe("danger");
    expect(countdownTone(0)).toBe("danger");
  });
});
