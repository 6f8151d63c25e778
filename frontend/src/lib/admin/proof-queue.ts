/**
 * The reviewer's queue (issue 16): pending purchases whose proof is attached, each with the light
 * its check came to. What the queue asks the server, what it says first about each proof, and
 * which of the selected purchases each bulk decision sends (the server decides only the green
 * ones to approve and the red ones to reject: sending others would only come back refused).
 */
import type { BulkDecision, ProofSignal, QueuedProof } from "@/lib/api/types";
import { lightOf, signalLight, type Light } from "./proof-check";

/** The light filter: every light, one of them, or the proofs whose check has not come to one. */
export const QUEUE_FILTERS = ["all", "green", "amber", "red", "unchecked"] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];

/** Oldest first clears a queue in order; newest first shows what just came in. */
export const QUEUE_ORDERS = ["oldest", "newest"] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];

/** Purchases read per page (the server takes 1 to 100). */
export const QUEUE_PAGE_SIZE = 50;

/** The query of GET /api/admin/proof-queue; `all` and `oldest` are the server's defaults, left out. */
export function proofQueueQuery({ light, order, after, limit = QUEUE_PAGE_SIZE }: { light: QueueFilter; order: QueueOrder; after?: number | null; limit?: number }): string {
  const q = new URLSearchParams();
  if (light !== "all") q.set("light", light);
  if (order !== "oldest") q.set("order", order);
  if (after != null) q.set("after", String(after));
  q.set("limit", String(limit));
  return q.toString();
}

/** The light of a queued proof, or null while its check runs (or when it was given up). */
export const queuedLight = (item: Pick<QueuedProof, "light">): Light | null => lightOf(item);

/**
 * What the queue says first about a proof: the first signal that is not green (what to look at),
 * or null when there is none (then the light's meaning says it, or that it is not checked yet).
 */
export function mainSignal(item: Pick<QueuedProof, "light" | "signals">): ProofSignal | null {
  if (queuedLight(item) === null) return null;
  return item.signals.find((signal) => signalLight(signal) !== "green") ?? null;
}

export type BulkAction = "approved" | "rejected";

/** The light a bulk decision takes: green to approve, red to reject. */
export const BULK_LIGHT: Record<BulkAction, Light> = { approved: "green", rejected: "red" };

/** The selected proofs a bulk decision would send: only those with its light, in the queue's order. */
export function bulkCandidates(items: readonly QueuedProof[], selected: ReadonlySet<number>, action: BulkAction): QueuedProof[] {
  return items.filter((item) => selected.has(item.purchase.id) && queuedLight(item) === BULK_LIGHT[action]);
}

/** The header checkbox: every shown proof selected, some, or none. */
export function selectAllState(items: readonly QueuedProof[], selected: ReadonlySet<number>): boolean | "indeterminate" {
  const chosen = items.filter((item) => selected.has(item.purchase.id)).length;
  if (chosen === 0) return false;
  return chosen === items.length ? true : "indeterminate";
}

/** The header checkbox clicked: all shown proofs when not all were, else none. */
export function toggleAll(items: readonly QueuedProof[], selected: ReadonlySet<number>): Set<number> {
  return selectAllState(items, selected) === true ? new Set() : new Set(items.map((item) => item.purchase.id));
}

/** One proof's checkbox set on or off. */
export function toggleOne(selected: ReadonlySet<number>, id: number, on: boolean): Set<number> {
  const next = new Set(selected);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** The selection kept to the proofs still shown (a decided one leaves the queue). */
export function keepShown(items: readonly QueuedProof[], selected: ReadonlySet<number>): Set<number> {
  const shown = new Set(items.map((item) => item.purchase.id));
  return new Set([...selected].filter((id) => shown.has(id)));
}

/**
 * What a bulk decision did, for its toast: how many were decided, and the references of those
 * it left as they were (another light by then, decided meanwhile, or gone), by the purchases
 * sent (`#id` for one the list no longer names).
 */
export function bulkOutcome(result: BulkDecision, sent: readonly QueuedProof[]): { decided: number; skipped: string[] } {
  const references = new Map(sent.map((item) => [item.purchase.id, item.purchase.reference]));
  const skipped = result.results.filter((r) => r.outcome !== "decided").map((r) => references.get(r.id) ?? `#${r.id}`);
  return { decided: result.decided, skipped };
}
