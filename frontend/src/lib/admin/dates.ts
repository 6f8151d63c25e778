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
