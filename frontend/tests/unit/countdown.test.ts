import { describe, expect, it } from "vitest";
import { FALLBACK_WINDOW_MS, clockOffset, closedPanel, countdownTarget, countdownTone, remaining } from "@/lib/countdown";

const DAY = 86_400_000;

describe("countdown target", () => {
  it("runs to the draw date when set, else to the end date", () => {
    expect(countdownTarget("2026-12-01T23:59:59.999Z", "2026-11-30T00:00:00.000Z")).toEqual({
      target: new Date("2026-12-01T23:59:59.999Z"),
      closedKind: "drawn",
      draw: new Date("2026-12-01T23:59:59.999Z"),
    });
    expect(countdownTarget(null, "2026-11-30T00:00:00.000Z")).toEqual({ target: new Date("2026-11-30T00:00:00.000Z"), closedKind: "closed", draw: null });
    expect(countdownTarget(null, null).target).toBeNull();
  });

  it("runs to the server's salesCloseAt when it says, the closed panel until the draw passes", () => {
    const draw = "2026-12-01T23:59:59.999Z";
    const closing = countdownTarget(draw, null, "2026-12-01T21:59:59.999Z");
    expect(closing.target).toEqual(new Date("2026-12-01T21:59:59.999Z"));
    expect(closing.closedKind).toBe("closed");
    expect(closedPanel(closing, new Date("2026-12-01T22:30:00Z"))).toBe("closed");
    expect(closedPanel(closing, new Date("2026-12-02T00:00:00Z"))).toBe("drawn");
    // Closing at the draw itself: the draw's panel, as before.
    expect(countdownTarget(draw, null, draw).closedKind).toBe("drawn");
    // Never closing by date: nothing to count to, even with an end date.
    expect(countdownTarget(null, "2026-11-30T00:00:00.000Z", null).target).toBeNull();
  });
});

describe("the server's clock", () => {
  it("is how far the server was ahead when its answer arrived", () => {
    const arrived = Date.parse("2026-11-20T12:00:00Z");
    expect(clockOffset("2026-11-20T12:00:30Z", arrived)).toBe(30_000);
    expect(clockOffset("2026-11-20T11:59:00Z", arrived)).toBe(-60_000);
    expect(clockOffset(null, arrived)).toBe(0);
    expect(clockOffset("not a time", arrived)).toBe(0);
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
