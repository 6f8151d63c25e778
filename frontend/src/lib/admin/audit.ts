/**
 * The audit trail's tab (decision 0022): what it asks the server and how it names what it shows.
 * Filter days are the admin's own (local) days.
 */

/** The actions the trail records today; a newer one is shown by its raw name. */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "auth.sign_out_everywhere",
  "auth.password_changed",
  "purchase.decided",
  "purchase.decided_in_bulk",
  "purchase.reopened",
  "purchase.test_created",
  "draw.prizes_set",
  "draw.ledger_frozen",
  "draw.result_recorded",
  "draw.prize_drawn",
  "draw.prize_delivered",
  "raffle.created",
  "raffle.updated",
  "raffle.deleted",
  "payment_method.created",
  "payment_method.updated",
  "payment_method.deleted",
  "exchange_rate.created",
  "exchange_rate.updated",
  "exchange_rate.deleted",
  "settings.branding_updated",
  "settings.email_updated",
  "settings.discounts_updated",
  "settings.test_email_sent",
  "mail.retried",
  "staff.created",
  "staff.updated",
  "staff.password_reset",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isKnownAction(action: string): action is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(action);
}

/** The filters as typed: "all" for any action; days as YYYY-MM-DD ("" for none). */
export interface AuditFilters {
  actor: string;
  action: "all" | AuditAction;
  target: string;
  from: string;
  until: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { actor: "", action: "all", target: "", from: "", until: "" };

/** Entries read per page (the server takes 1 to 200). */
export const AUDIT_PAGE_SIZE = 50;

/** The instant a local day starts, RFC 3339 in UTC; `days` later for the day's end. */
export function localDayStart(day: string, days = 0): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
}

/** What was acted on, as the server names it: a bare or `#` number is a purchase ("42" → "purchase:42"). */
export function auditTarget(typed: string): string {
  const text = typed.trim();
  const purchase = /^#?(\d+)$/.exec(text);
  return purchase ? `purchase:${Number(purchase[1])}` : text;
}

/** The id of a `kind:id` target of that kind, or null. */
function idOfTarget(kind: string, target: string | null | undefined): number | null {
  const match = /^([a-z_]+):(\d+)$/.exec(target ?? "");
  return match?.[1] === kind ? Number(match[2]) : null;
}

/** The purchase a target names ("purchase:42" → 42), or null. */
export function purchaseOfTarget(target: string | null | undefined): number | null {
  return idOfTarget("purchase", target);
}

/** The kinds of target the trail names by what they are called ("raffle:3" → the raffle's title). */
export const NAMED_TARGETS = ["raffle", "prize", "payment_method", "exchange_rate", "admin"] as const;
export type NamedTarget = (typeof NAMED_TARGETS)[number];

/** A named kind's target as its kind and id ("raffle:3" → ["raffle", 3]), or null. */
export function namedTarget(target: string | null | undefined): [NamedTarget, number] | null {
  const match = /^([a-z_]+):(\d+)$/.exec(target ?? "");
  const kind = NAMED_TARGETS.find((k) => k === match?.[1]);
  return kind && match ? [kind, Number(match[2])] : null;
}

/** The outbox's message a target names ("mail:9" → 9: a retried e-mail), or null. */
export function mailOfTarget(target: string | null | undefined): number | null {
  return idOfTarget("mail", target);
}

/**
 * The filters as GET /api/admin/audit and its export read them; empty ones are left out. `from` is
 * the start of its day and `until` the start of the day after (the server reads `until` as
 * "before this instant"), so both days are included whole.
 */
export function auditFilterParams(filters: AuditFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (filters.actor.trim()) q.set("actor", filters.actor.trim());
  if (filters.action !== "all") q.set("action", filters.action);
  const target = auditTarget(filters.target);
  if (target) q.set("target", target);
  if (filters.from) q.set("from", localDayStart(filters.from));
  if (filters.until) q.set("until", localDayStart(filters.until, 1));
  return q;
}

/** The query of a page of GET /api/admin/audit: the filters, then where the page starts and its size. */
export function auditQuery(filters: AuditFilters, { before, limit = AUDIT_PAGE_SIZE }: { before?: number | null; limit?: number } = {}): string {
  const q = auditFilterParams(filters);
  if (before != null) q.set("before", String(before));
  q.set("limit", String(limit));
  return q.toString();
}
