import type { Raffle } from "@/lib/api/types";

/**
 * A raffle on sale whose sales have closed: the server said so (`salesOpen` false when it
 * answered), or, given the server's `now`, its `salesCloseAt` has passed since. Raffles not on
 * sale show their own status instead.
 */
export function salesClosed(raffle: Pick<Raffle, "status" | "salesOpen" | "salesCloseAt">, now?: number | null): boolean {
  if (raffle.status !== "available") return false;
  if (raffle.salesOpen === false) return true;
  if (now === undefined || now === null || !raffle.salesCloseAt) return false;
  const closes = Date.parse(raffle.salesCloseAt);
  return !Number.isNaN(closes) && closes <= now;
}
