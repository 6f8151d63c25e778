import type { AdminDrawView, AdminPrize } from "@/lib/api/types";

/** The admin panel's rules of the verifiable draw (decision 0020), apart from its components. */

/** Prizes a raffle may have (the server's `MAX_PRIZES`). */
export const MAX_PRIZES = 20;

/** With this many days or fewer left to claim a prize, the panel shows the deadline in red. */
export const CLAIM_URGENT_DAYS = 5;

// drand's "quicknet" chain: round 1 at its genesis, then one round every 3 seconds.
const QUICKNET_GENESIS_SECONDS = 1_692_803_367;
const QUICKNET_PERIOD_SECONDS = 3;

/** When drand publishes a quicknet round (RFC 3339), so the admin sees whether it falls after sales close. */
export function quicknetRoundTime(round: number): string {
  return new Date((QUICKNET_GENESIS_SECONDS + (round - 1) * QUICKNET_PERIOD_SECONDS) * 1000).toISOString();
}

/** The first quicknet round published after `iso`: the round nobody can know while sales are open. */
export function firstRoundAfter(iso: string): number {
  const seconds = Date.parse(iso) / 1000;
  if (seconds < QUICKNET_GENESIS_SECONDS) return 1;
  return Math.floor((seconds - QUICKNET_GENESIS_SECONDS) / QUICKNET_PERIOD_SECONDS) + 2;
}

/** How long after sales close a source may first draw: the server's `FREEZE_MARGIN` (decision 0025). */
export const FREEZE_MARGIN_MS = 10 * 60_000;

/** The first round the server takes for sales closing at `salesCloseAt`: past the freeze's margin. */
export function firstRoundAfterClose(salesCloseAt: string): number {
  return firstRoundAfter(new Date(Date.parse(salesCloseAt) + FREEZE_MARGIN_MS).toISOString());
}

/** The prizes in the order they are drawn (position 1 first). */
export function prizesInOrder(view: AdminDrawView): AdminPrize[] {
  return [...view.prizes].sort((a, b) => a.position - b.position);
}

/** Whether the prizes can still be edited: not after the first purchase, nor once the ledger is frozen. */
export function prizesEditable(view: AdminDrawView): boolean {
  return !view.rulesLocked && !view.commitment;
}

/** What keeps the ledger from being frozen now (the server's 409s, told before the click). */
export type FreezeBlocker = "salesOpen" | "pendingPurchases" | "noPrizes";

export function freezeBlockers(view: AdminDrawView): FreezeBlocker[] {
  const blockers: FreezeBlocker[] = [];
  if (view.salesOpen) blockers.push("salesOpen");
  if (view.pendingPurchases.length > 0) blockers.push("pendingPurchases");
  if (view.prizes.length === 0) blockers.push("noPrizes");
  return blockers;
}

/**
 * Why the result of a prize not drawn yet cannot be recorded now, or null when it can: results
 * need the frozen ledger. They may be recorded in any order (issue 32): prizes settle in order,
 * each once the ones before it are decided.
 */
export type ResultBlocker = { reason: "notFrozen" };

export function resultBlocker(view: AdminDrawView): ResultBlocker | null {
  return view.commitment ? null : { reason: "notFrozen" };
}

/** What the panel asks of a prize not drawn yet. */
export type PendingStep =
  /** Its own source's result (a lottery's, or its announced round). */
  | { kind: "ownSource" }
  /** Its fallback drand round: the lottery's result named no number in play, or its deadline passed without one. */
  | { kind: "fallbackRound"; round: number }
  /** Every result it needs so far is recorded: it waits for the earlier prizes to be decided. */
  | { kind: "earlier" };

/**
 * The source of a prize's chain the panel offers to record: the one the server says the draw
 * awaits for it, else its fallback round once its lottery's deadline passed without a result,
 * else its own source until that has a result.
 */
export function pendingStep(view: AdminDrawView, prize: AdminPrize, now = Date.now()): PendingStep {
  const { source } = prize;
  const fallback = source.kind === "lottery" ? (source.fallbackRound ?? null) : null;
  const has = (index: number) => prize.results.some((r) => r.source === index);
  if (fallback !== null && !has(1)) {
    const awaited = view.awaiting?.prizeId === prize.id && view.awaiting.source === 1;
    const lapsed = !has(0) && source.kind === "lottery" && !!source.deadline && Date.parse(source.deadline) <= now;
    if (awaited || lapsed) return { kind: "fallbackRound", round: fallback };
  }
  return has(0) ? { kind: "earlier" } : { kind: "ownSource" };
}

/**
 * How pressing a claim's deadline is. The server counts a started day as a whole one, so 0 days
 * left means the deadline has passed (less than a day ago), as do negative counts.
 */
export type ClaimUrgency = "open" | "urgent" | "expired";

export function claimUrgency(daysLeft: number): ClaimUrgency {
  if (daysLeft <= 0) return "expired";
  return daysLeft <= CLAIM_URGENT_DAYS ? "urgent" : "open";
}
