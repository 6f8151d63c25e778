/**
 * Which cached reads an event refreshes. A decision or a live notice refetches the purchase
 * lists and the figures (a page, its summary, the four cards: two or three calls), never the
 * chart's series: that catches up at most once a minute (CHART_REFRESH_MS), however many
 * purchases arrive during a hot raffle.
 */
export const CHART_REFRESH_MS = 60_000;

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
