"use client";

import { useLocale, useTranslations } from "next-intl";
import { CheckCircle2, Clock, FileCheck2, RotateCcw, ShoppingCart, XCircle } from "lucide-react";
import type { PurchaseEvent } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { cn } from "@/lib/utils";

const KINDS = {
  received: { icon: ShoppingCart, tone: "text-primary" },
  proof_attached: { icon: FileCheck2, tone: "text-primary" },
  approved: { icon: CheckCircle2, tone: "text-success-strong" },
  rejected: { icon: XCircle, tone: "text-danger-strong" },
  expired: { icon: Clock, tone: "text-warning-strong" },
  reopened: { icon: RotateCcw, tone: "text-primary" },
} as const;

type Kind = keyof typeof KINDS;
const isKind = (kind: string): kind is Kind => kind in KINDS;

/** The purchase's history, oldest first: received, proof, decision (with the admin's note), expiry, reopening. */
export function PurchaseTimeline({ events }: { events: PurchaseEvent[] }) {
  const t = useTranslations("buyerPage.history");
  const locale = useLocale();
  return (
    <section aria-labelledby="history-title" className="space-y-3 rounded-xl border bg-card p-4 shadow-sm sm:p-5">
      <h2 id="history-title" className="font-semibold">{t("title")}</h2>
      <ol className="space-y-4" data-testid="buyer-history">
        {events.map((event, i) => {
          const known = isKind(event.kind) ? KINDS[event.kind] : null;
          const Icon = known?.icon ?? Clock;
          return (
            <li key={`${event.kind}-${event.at}-${i}`} className="relative flex gap-3" data-kind={event.kind}>
              {i < events.length - 1 && <span aria-hidden className="absolute left-[0.6875rem] top-7 h-[calc(100%-0.75rem)] w-px bg-border" />}
              <Icon aria-hidden className={cn("mt-0.5 size-6 shrink-0 rounded-full bg-background", known?.tone ?? "text-muted-foreground")} />
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium">{isKind(event.kind) ? t(event.kind) : event.kind}</p>
                <p className="text-xs text-muted-foreground">
                  <time dateTime={event.at}>{formatDateTime(event.at, locale)}</time>
                </p>
                {event.note && <p className="whitespace-pre-wrap break-words text-sm">{t("note", { note: event.note })}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
