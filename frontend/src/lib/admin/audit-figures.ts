/**
 * The trail's per-person figures (GET /api/admin/audit/figures): the days asked, each person's
 * decisions laid over every one of them, and the median wait split for words. Days are the
 * admin's own (local) days, YYYY-MM-DD.
 */
import type { DayDecisions } from "@/lib/api/types";
import { lastDays } from "./dates";

/** Days the figures open on: the last 30, today included. */
const FIGURES_DAYS = 30;

/** The first and the last day asked, both included ("" while one is not chosen). */
export interface DayRange {
  from: string;
  to: string;
}

export function defaultFiguresRange(today = new Date()): DayRange {
  const days = lastDays(FIGURES_DAYS, today);
  return { from: days[0]!, to: days[FIGURES_DAYS - 1]! };
}

const DAY_MS = 86_400_000;

/** Every day from `from` to `to`, oldest first; none when either is not a day or they are reversed. */
export function daysOf({ from, to }: DayRange): string[] {
  // Counted at UTC noon: calendar days, untouched by the admin's summer time.
  const start = Date.parse(`${from}T12:00:00Z`);
  const end = Date.parse(`${to}T12:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return [];
  const days: string[] = [];
  for (let at = start; at <= end; at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** A person's decisions on every day of the range, 0 on the days the server leaves out (it lists only days with some). */
export function perDaySeries(perDay: readonly DayDecisions[], range: DayRange): DayDecisions[] {
  const byDay = new Map(perDay.map((d) => [d.date, d.decisions]));
  return daysOf(range).map((date) => ({ date, decisions: byDay.get(date) ?? 0 }));
}

/** The `count` days with the most decisions, most first (on a tie, the later day first); days without any never. */
export function busiestDays(series: readonly DayDecisions[], count = 3): DayDecisions[] {
  return series
    .filter((d) => d.decisions > 0)
    .sort((a, b) => b.decisions - a.decisions || b.date.localeCompare(a.date))
    .slice(0, count);
}

/**
 * A wait in the two largest units worth reading, rounded to the smaller one: seconds under a
 * minute, minutes under an hour, then hours and minutes, then days and hours ("2 d 3 h", not
 * "51 h 12 min"). Rounding may carry into the next unit: 59 min 40 s is "1 h", not "60 min".
 */
export type WaitParts =
  | { unit: "seconds"; seconds: number }
  | { unit: "minutes"; minutes: number }
  | { unit: "hours"; hours: number; minutes: number }
  | { unit: "days"; days: number; hours: number };

export function waitParts(totalSeconds: number): WaitParts {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return { unit: "seconds", seconds };
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return { unit: "minutes", minutes };
  if (minutes < 24 * 60) return { unit: "hours", hours: Math.floor(minutes / 60), minutes: minutes % 60 };
  const hours = Math.round(seconds / 3600);
  return { unit: "days", days: Math.floor(hours / 24), hours: hours % 24 };
}
