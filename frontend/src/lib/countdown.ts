/** Countdown rules of SPEC §2 "Raffle detail". */
export const FALLBACK_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
export const TICK_MS = 1000;

export type CountdownTone = "success" | "warning" | "danger";

export interface CountdownTarget {
  /** Draw date if set, otherwise the end date; null when neither is set. */
  target: Date | null;
  /** Which closed panel shows at zero. */
  closedKind: "drawn" | "closed";
}

export function countdownTarget(drawDate: string | null, endDate: string | null): CountdownTarget {
  const iso = drawDate ?? endDate;
  return { target: iso ? new Date(iso) : null, closedKind: drawDate ? "drawn" : "closed" };
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
