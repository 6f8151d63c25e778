/** Countdown rules of SPEC §2 "Raffle detail". */
export const FALLBACK_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
export const TICK_MS = 1000;
/**
 * The API's sweep expires due holds every few seconds (RIFA_HOLD_SWEEP_SECONDS, 5 by default):
 * a page reads again this long after a deadline to see the numbers back or the purchase expired.
 */
export const AFTER_DEADLINE_MS = 6000;

export type CountdownTone = "success" | "warning" | "danger";

/** The classes of each tone: its digits and icon, and its progress bar. */
export const TONE_TEXT: Record<CountdownTone, string> = { success: "text-success-strong", warning: "text-warning-strong", danger: "text-danger-strong" };
export const TONE_BAR: Record<CountdownTone, string> = { success: "bg-success-strong", warning: "bg-warning", danger: "bg-danger-strong" };

export type ClosedKind = "drawn" | "closed";

export interface CountdownTarget {
  /**
   * When sales close: the server's `salesCloseAt` when it says (the draw date minus the
   * raffle's closing hours, or the end date); otherwise the draw date if set, else the end date.
   * Null when there is nothing to count to.
   */
  target: Date | null;
  /** Which closed panel shows at zero ('Sorteo Finalizado' when the target is the draw itself). */
  closedKind: ClosedKind;
  /** The draw date: once it has passed, the closed panel says the draw took place. */
  draw: Date | null;
}

/**
 * What the countdown counts to. `salesCloseAt` undefined means an answer from before the API
 * said when sales close (the draw or end date then); null means they never close by date.
 */
export function countdownTarget(drawDate: string | null, endDate: string | null, salesCloseAt?: string | null): CountdownTarget {
  const draw = drawDate ? new Date(drawDate) : null;
  if (salesCloseAt !== undefined) {
    const target = salesCloseAt ? new Date(salesCloseAt) : null;
    const atDraw = draw !== null && target !== null && target.getTime() >= draw.getTime();
    return { target, closedKind: atDraw ? "drawn" : "closed", draw };
  }
  const iso = drawDate ?? endDate;
  return { target: iso ? new Date(iso) : null, closedKind: drawDate ? "drawn" : "closed", draw };
}

/** The closed panel to show at `now`: sales that closed before the draw become 'drawn' once it passes. */
export function closedPanel({ closedKind, draw }: CountdownTarget, now: Date | null): ClosedKind {
  if (closedKind === "drawn") return "drawn";
  return draw !== null && now !== null && now.getTime() >= draw.getTime() ? "drawn" : "closed";
}

/**
 * How far the server's clock is ahead of this one (ms): its `serverTime` minus the moment the
 * answer was read here. Added to Date.now(), it gives the server's "now", so a countdown agrees
 * with the server even when the visitor's clock is off. 0 when the server did not say.
 */
export function clockOffset(serverTime: string | null | undefined, receivedAt: number): number {
  if (!serverTime) return 0;
  const server = Date.parse(serverTime);
  return Number.isNaN(server) ? 0 : server - receivedAt;
}

export interface Remaining {
  totalMs: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** 0–1: remaining share of the time from creation (or a 30-day window) to the target. */
  share: number;
  done: boolean;
}

export function remaining(target: Date, now: Date, start: Date | null): Remaining {
  const totalMs = Math.max(0, target.getTime() - now.getTime());
  const windowMs = start ? target.getTime() - start.getTime() : FALLBACK_WINDOW_MS;
  const share = windowMs > 0 ? Math.min(1, totalMs / windowMs) : 0;
  const s = Math.floor(totalMs / 1000);
  return {
    totalMs,
    days: Math.floor(s / 86400),
    hours: Math.floor((s % 86400) / 3600),
    minutes: Math.floor((s % 3600) / 60),
    seconds: s % 60,
    share,
    done: totalMs === 0,
  };
}

/** Above 40 % one colour, above 20 % another, else the danger colour. */
export function countdownTone(share: number): CountdownTone {
  if (share > 0.4) return "success";
  if (share > 0.2) return "warning";
  return "danger";
}
