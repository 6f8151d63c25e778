/**
 * The audit trail's tab (decision 0022): what it asks the server, how it names what it shows, and
 * the CSV of the entries loaded. Filter days are the admin's own (local) days.
 */
import type { AuditEntry } from "@/lib/api/types";
import { csvText } from "./csv";

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
  "draw.prizes_set",
  "draw.ledger_frozen",
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

/** The purchase a target names ("purchase:42" → 42), or null. */
export function purchaseOfTarget(target: string | null | undefined): number | null {
  const match = /^purchase:(\d+)$/.exec(target ?? "");
  return match ? Number(match[1]) : null;
}

/**
 * The query of GET /api/admin/audit; empty filters are left out. `from` is the start of its day and
 * `until` the start of the day after (the server reads `until` as "before this instant"), so both
 * days are included whole.
 */
export function auditQuery(filters: AuditFilters, { before, limit = AUDIT_PAGE_SIZE }: { before?: number | null; limit?: number } = {}): string {
  const q = new URLSearchParams();
  if (filters.actor.trim()) q.set("actor", filters.actor.trim());
  if (filters.action !== "all") q.set("action", filters.action);
  const target = auditTarget(filters.target);
  if (target) q.set("target", target);
  if (filters.from) q.set("from", localDayStart(filters.from));
  if (filters.until) q.set("until", localDayStart(filters.until, 1));
  if (before != null) q.set("before", String(before));
  q.set("limit", String(limit));
  return q.toString();
}

/** The CSV's columns. */
export const AUDIT_CSV_HEADER = ["seq", "at", "actor", "ip", "action", "target", "changes", "hash"] as const;

/** A change as the CSV writes it: raw field and values, `∅` for none ("status: pending → approved"). */
const changeCell = (c: AuditEntry["changes"][number]) => `${c.field}: ${c.before ?? "∅"} → ${c.after ?? "∅"}`;

/** The entries as CSV, as the server sent them (raw names, UTC instants); changes joined by "; ". */
export function auditCsv(entries: readonly AuditEntry[]): string {
  return csvText([
    AUDIT_CSV_HEADER,
    ...entries.map((e) => [String(e.seq), e.at, e.actor, e.ip ?? "", e.action, e.target ?? "", e.changes.map(changeCell).join("; "), e.hash]),
  ]);
}
