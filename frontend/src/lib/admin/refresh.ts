/**
 * Which cached reads an event refreshes. A decision or a live notice refetches the purchase
 * lists and the figures (a page, its summary, the four cards: two or three calls), never the
 * chart's series: that catches up at most once a minute (CHART_REFRESH_MS), however many
 * purchases arrive during a hot raffle.
 */
export const CHART_REFRESH_MS = 60_000;

function urlOf(key: unknown): string | null {
  const url = Array.isArray(key) ? key[0] : key;
  return typeof url === "string" ? url : null;
}

/** The sales chart's series (GET /api/admin/stats/daily). */
export function isChartKey(key: unknown): boolean {
  return urlOf(key)?.startsWith("/api/admin/stats/daily") ?? false;
}

/** Purchase lists, single purchases and the dashboard figures, but not the chart. */
export function isPurchaseViewKey(key: unknown): boolean {
  const url = urlOf(key);
  if (!url) return false;
  return url.startsWith("/api/admin/purchases") || url === "/api/admin/stats" || url.startsWith("/api/admin/stats?");
}

/** Runs `fn` once, `ms` after the first call of a burst; further calls meanwhile do nothing. */
export function throttleTrailing(fn: () => void, ms: number, setTimer: (f: () => void, t: number) => unknown = (f, t) => setTimeout(f, t)): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    setTimer(() => {
      pending = false;
      fn();
    }, ms);
  };
}
