"use client";

import { useLocale, useTranslations } from "next-intl";
import { CircleDollarSign, Clock, Ticket, Trophy } from "lucide-react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useStats } from "@/lib/swr/use-stats";
import { formatCount, formatUsd } from "@/lib/format";

export interface StatItem {
  label: string;
  value: string | number | undefined;
  icon: React.ReactNode;
  hint?: string;
  testId?: string;
}

/** A row of figure cards; `undefined` values show a placeholder while loading. */
export function StatCards({ items, className }: { items: StatItem[]; className?: string }) {
  return (
    <div className={className ?? "grid grid-cols-2 gap-3 lg:grid-cols-4"}>
      {items.map((item) => (
        <Card key={item.label} className="min-w-0 gap-1 px-2.5 py-3 sm:px-4 sm:py-4" data-testid={item.testId}>
          <div className="flex items-start justify-between gap-2 text-xs text-muted-foreground sm:text-sm">
            <span>{item.label}</span>
            <span className="text-foreground/60 max-sm:hidden [&_svg]:size-4">{item.icon}</span>
          </div>
          {item.value === undefined ? (
            <Skeleton className="h-7 w-20" />
          ) : (
            <p className="text-base font-bold tabular-nums sm:text-2xl" data-value>
              {item.value}
            </p>
          )}
          {item.hint && <p className="text-xs text-muted-foreground">{item.hint}</p>}
        </Card>
      ))}
    </div>
  );
}

/** The four dashboard figures (SPEC §2, §9): revenue and tickets count approved purchases only. */
export function SummaryCards() {
  const t = useTranslations("admin.cards");
  const locale = useLocale();
  const { data } = useStats();
  return (
    <StatCards
      items={[
        { label: t("ticketsSold"), value: data ? formatCount(data.ticketsSold, locale) : undefined, icon: <Ticket aria-hidden />, testId: "card-tickets" },
        { label: t("totalRevenue"), value: data ? formatUsd(data.totalRevenue, locale) : undefined, icon: <CircleDollarSign aria-hidden />, hint: t("approvedOnly"), testId: "card-revenue" },
        { label: t("pendingPurchases"), value: data ? formatCount(data.pendingPurchases, locale) : undefined, icon: <Clock aria-hidden />, testId: "card-pending" },
        { label: t("activeRaffles"), value: data?.activeRaffles, icon: <Trophy aria-hidden />, testId: "card-active" },
      ]}
    />
  );
}
