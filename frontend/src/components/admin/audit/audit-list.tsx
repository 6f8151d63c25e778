"use client";

import { useLocale, useTranslations } from "next-intl";
import { ChevronRight } from "lucide-react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { isKnownAction, mailOfTarget, namedTarget, purchaseOfTarget } from "@/lib/admin/audit";
import { isStaffRole } from "@/lib/admin/permissions";
import type { AuditChange, AuditEntry } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { cn } from "@/lib/utils";

/** What the trail stores for a secret's before and after (crates/domain/src/audit.rs). */
const REDACTED = "[redacted]";
const STATUSES = ["pending", "approved", "rejected", "expired", "test", "available", "finished", "postponed", "inactive", "completed"] as const;
const FIELDS = ["status", "adminNotes", "prizes", "root", "size", "result", "winningNumber", "photo", "title", "description", "image", "price", "maxTickets", "minPerPurchase", "maxPerPurchase", "drawDate", "endDate", "holdMinutes", "closeHoursBeforeDraw", "name", "type", "active", "exchangeRateId", "referenceRequired", "referenceMinLength", "details", "from", "to", "rate", "primaryColor", "secondaryColor", "accentColor", "dangerColor", "successColor", "companyName", "logoUrl", "contactEmail", "contactPhone", "whatsappUrl", "facebookUrl", "instagramUrl", "tiktokUrl", "whatsappChannelUrl", "lotteryResultsUrl", "videoUrls", "participants", "countries", "rafflesPagePrizes", "rafflesPageParticipants", "rafflesPageWinners", "host", "port", "user", "password", "fromEmail", "tiers", "username", "role", "disabled", "must_change_password", "delivered", "recipient", "raffleId", "tickets", "totalAmount"] as const;
/** Fields whose values are `true` or `false`, worded yes or no. */
const YES_NO_FIELDS = ["active", "referenceRequired", "disabled", "must_change_password", "delivered"] as const;
/** Who acts without being an admin: the server's first start, and `rifa-api` on the command line. */
const SYSTEM_ACTORS = ["first-start", "command-line"] as const;

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** An action worded ("Compra decidida"); one this build does not know, by its raw name. */
export function useActionLabel(): (action: string) => string {
  const t = useTranslations("admin.audit");
  return (action) => (isKnownAction(action) ? t(`actions.${action}`) : action);
}

/** The field's name as worded: a test e-mail's `to` is its recipient (a rate's `to` is a currency). */
const fieldName = (action: string, field: string) => (action === "settings.test_email_sent" && field === "to" ? "recipient" : field);

/**
 * A change of an action worded: "estado: pendiente → aprobada", "nota: sin pago" (nothing
 * before); null when nothing is on either side (a decision without a note). Unknown fields and
 * values stay raw.
 */
export function useChangeText(): (change: AuditChange, action: string) => string | null {
  const t = useTranslations("admin.audit");
  const roles = useTranslations("admin.staff.roles");
  return (c, action) => {
    if (c.before == null && c.after == null) return null;
    const name = fieldName(action, c.field);
    const field = isOneOf(FIELDS, name) ? t(`fields.${name}`) : c.field;
    const value = (v: string | null | undefined) => {
      if (v == null) return t("none");
      if (v === REDACTED) return t("redacted");
      if (c.field === "status" && isOneOf(STATUSES, v)) return t(`statuses.${v}`);
      if (c.field === "role" && isStaffRole(v)) return roles(v);
      if (isOneOf(YES_NO_FIELDS, c.field) && (v === "true" || v === "false")) return t(v === "true" ? "yes" : "no");
      return v;
    };
    return c.before == null ? t("changeSet", { field, after: value(c.after) }) : t("change", { field, before: value(c.before), after: value(c.after) });
  };
}

export interface AuditListProps {
  items: AuditEntry[];
  /** A purchase target's link: opens the purchase's dialog. */
  onOpenPurchase: (purchaseId: number) => void;
}

/** The entries: cards on phones, a table from `md` up (six columns need the room). */
export function AuditList({ items, onOpenPurchase }: AuditListProps) {
  const t = useTranslations("admin.audit");
  const tc = useTranslations("admin.audit.columns");
  const locale = useLocale();
  const actionLabel = useActionLabel();
  const changeText = useChangeText();

  const time = (e: AuditEntry) => (
    <time dateTime={e.at} title={e.at} className="whitespace-nowrap">
      {formatDateTime(e.at, locale)}
    </time>
  );
  // A failed sign-in has nobody signed in: '—', and the name that was tried. The server itself
  // acting has no admin's id (a username may read "first-start" too).
  const who = (e: AuditEntry) =>
    e.action === "auth.sign_in_failed" ? (
      <span className="grid">
        <span aria-hidden>{t("none")}</span>
        <span className="wrap-anywhere text-xs text-muted-foreground">{t("failedActor", { name: e.actor })}</span>
      </span>
    ) : e.actorId == null && isOneOf(SYSTEM_ACTORS, e.actor) ? (
      <span className="wrap-anywhere font-medium italic">{t(`actors.${e.actor}`)}</span>
    ) : (
      <span className="wrap-anywhere font-medium">{e.actor}</span>
    );
  const ip = (e: AuditEntry) => <span className="break-all font-mono text-xs">{e.ip || t("none")}</span>;
  const action = (e: AuditEntry) => (
    <span className={cn(!isKnownAction(e.action) && "font-mono text-xs", e.action === "auth.sign_in_failed" && "text-danger-strong")}>{actionLabel(e.action)}</span>
  );
  const target = (e: AuditEntry) => {
    const purchase = purchaseOfTarget(e.target);
    if (purchase !== null) {
      return (
        <button
          type="button"
          onClick={() => onOpenPurchase(purchase)}
          className="inline-flex items-center whitespace-nowrap font-medium tabular-nums text-primary underline underline-offset-2 outline-none hover:no-underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-label={t("openPurchase", { name: e.targetName ?? `#${purchase}` })}
          data-testid="audit-target"
        >
          {t("purchase", { name: e.targetName ?? `#${purchase}` })}
          <ChevronRight aria-hidden className="size-3.5" />
        </button>
      );
    }
    const mail = mailOfTarget(e.target);
    if (mail !== null) {
      return (
        <span className="whitespace-nowrap font-medium tabular-nums" title={e.target ?? undefined} data-testid="audit-target">
          {t("mail", { id: mail })}
        </span>
      );
    }
    const named = namedTarget(e.target);
    if (named && e.targetName) {
      const [kind, id] = named;
      const name = t(`targets.${kind}`, { name: e.targetName });
      // A raffle has a page of its own; the other records live in their tabs.
      return kind === "raffle" ? (
        <a href={`/sorteo/${id}`} target="_blank" rel="noopener noreferrer" className="wrap-anywhere font-medium text-primary underline underline-offset-2 hover:no-underline" title={e.target ?? undefined} data-testid="audit-target">
          {name}
        </a>
      ) : (
        <span className="wrap-anywhere font-medium" title={e.target ?? undefined} data-testid="audit-target">
          {name}
        </span>
      );
    }
    return <span className="break-all font-mono text-xs" data-testid="audit-target">{e.target || t("none")}</span>;
  };
  const changes = (e: AuditEntry) => {
    const lines = e.changes.map((c) => changeText(c, e.action)).filter((line): line is string => line !== null);
    if (lines.length === 0) return <span className="text-muted-foreground">{t("none")}</span>;
    return (
      <ul className="grid gap-0.5" data-testid="audit-changes">
        {lines.map((line, i) => (
          <li key={i} className="wrap-anywhere">
            {line}
          </li>
        ))}
      </ul>
    );
  };

  return (
    <>
      <ul className="divide-y md:hidden" data-testid="audit-cards">
        {items.map((e) => (
          <li key={e.seq} className="grid gap-2 p-4 text-sm" data-testid="audit-item" data-seq={e.seq} data-action={e.action} data-target={e.target ?? undefined}>
            <div className="flex items-baseline justify-between gap-2">
              <span className="min-w-0 font-medium">{action(e)}</span>
              <span className="shrink-0 text-xs tabular-nums text-muted-foreground">#{e.seq}</span>
            </div>
            <p className="text-xs text-muted-foreground">{time(e)}</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted-foreground">{tc("actor")}</dt>
              <dd className="min-w-0">{who(e)}</dd>
              <dt className="text-muted-foreground">{tc("ip")}</dt>
              <dd className="min-w-0">{ip(e)}</dd>
              <dt className="text-muted-foreground">{tc("target")}</dt>
              <dd className="min-w-0">{target(e)}</dd>
              <dt className="text-muted-foreground">{tc("changes")}</dt>
              <dd className="min-w-0">{changes(e)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="max-md:hidden">
        <Table data-testid="audit-table">
          <TableHeader>
            <TableRow>
              <TableHead className="text-right">{tc("seq")}</TableHead>
              <TableHead>{tc("at")}</TableHead>
              <TableHead>{tc("actor")}</TableHead>
              <TableHead>{tc("ip")}</TableHead>
              <TableHead>{tc("action")}</TableHead>
              <TableHead>{tc("target")}</TableHead>
              <TableHead>{tc("changes")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((e) => (
              <TableRow key={e.seq} data-testid="audit-row" data-seq={e.seq} data-action={e.action} data-target={e.target ?? undefined}>
                <TableCell className="text-right tabular-nums text-muted-foreground">{e.seq}</TableCell>
                <TableCell className="text-muted-foreground">{time(e)}</TableCell>
                <TableCell>
                  <div className="max-w-40">{who(e)}</div>
                </TableCell>
                <TableCell>
                  <div className="max-w-36">{ip(e)}</div>
                </TableCell>
                <TableCell>
                  <div className="min-w-32 max-w-52 whitespace-normal">{action(e)}</div>
                </TableCell>
                <TableCell className="whitespace-nowrap">{target(e)}</TableCell>
                <TableCell>
                  <div className="min-w-40 max-w-72 whitespace-normal text-sm">{changes(e)}</div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
