/** Day handling of the panel: filters are days in the admin's own time zone. */

/** The browser's offset from UTC in minutes, as the API's `utcOffsetMinutes` (-240 for Caracas). */
export function utcOffsetMinutes(date = new Date()): number {
  return -date.getTimezoneOffset();
}

/** YYYY-MM-DD of a moment in the local time zone. */
export function localDay(date = new Date()): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** Milliseconds from `now` to the next local midnight (at least 1 s, so a timer never spins). */
export function msUntilNextDay(now = new Date()): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return Math.max(1000, next.getTime() - now.getTime());
}

/** The `n` local days ending today, oldest first. */
export function lastDays(n: number, today = new Date()): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (n - 1 - i));
    return localDay(d);
  });
}

/** The draw date input (YYYY-MM-DD) as the end of that day in UTC (SPEC §5). */
export function endOfDayUtc(day: string): string {
  return `${day}T23:59:59.999Z`;
}

/** The day (YYYY-MM-DD, read in UTC) of a stored draw date, for the date input. */
export function dayOfUtc(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 10);
}

/** Today as YYYY-MM-DD in UTC (the new raffle's default draw date). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** How each panel language writes a day (the browser's own date input follows its UI language instead). */
const DAY_ORDER: Record<string, readonly ("d" | "m" | "y")[]> = { es: ["d", "m", "y"], en: ["m", "d", "y"] };

function orderOf(locale: string) {
  return DAY_ORDER[locale] ?? DAY_ORDER.es!;
}

/** "26/07/2025" (es) or "07/26/2025" (en) for "2025-07-26"; "" for anything else. */
export function formatDay(iso: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return "";
  const parts = { y: m[1], m: m[2], d: m[3] };
  return orderOf(locale)
    .map((p) => parts[p])
    .join("/");
}

/**
 * The YYYY-MM-DD of a typed or pasted day, or null when it cannot be read (never a guess).
 * Read: ISO (2026-12-20, in both languages, as pasted from elsewhere) and the language's own
 * order (20/12/2026 in es, 12/20/2026 in en; separators / - . or spaces, two-digit years as 20xx).
 */
export function parseDay(text: string, locale: string): string | null {
  const pieces = text.trim().split(/[/.\-\s]+/);
  if (pieces.length !== 3 || pieces.some((p) => !/^\d+$/.test(p))) return null;
  const order = pieces[0]!.length === 4 ? (["y", "m", "d"] as const) : orderOf(locale);
  const parts: Record<string, number> = {};
  order.forEach((p, i) => (parts[p] = Number(pieces[i])));
  const yearText = pieces[order.indexOf("y")]!;
  if (yearText.length !== 4 && yearText.length !== 2) return null;
  const year = yearText.length === 2 ? 2000 + parts.y! : parts.y!;
  const date = new Date(Date.UTC(year, parts.m! - 1, parts.d!));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== parts.m! - 1 || date.getUTCDate() !== parts.d) return null;
  return date.toISOString().slice(0, 10);
}

/** The weeks of a month for a calendar (Monday first for es, Sunday first for en), days as YYYY-MM-DD. */
export function monthGrid(year: number, month: number, locale: string): { day: string; inMonth: boolean }[][] {
  const weekStart = locale === "en" ? 0 : 1;
  const first = new Date(Date.UTC(year, month, 1));
  const lead = (first.getUTCDay() - weekStart + 7) % 7;
  const start = Date.UTC(year, month, 1 - lead);
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const weeks = Math.ceil((lead + days) / 7);
  return Array.from({ length: weeks }, (_, w) =>
    Array.from({ length: 7 }, (_, d) => {
      const date = new Date(start + (w * 7 + d) * 86_400_000);
      return { day: date.toISOString().slice(0, 10), inMonth: date.getUTCMonth() === month };
    }),
  );
}
