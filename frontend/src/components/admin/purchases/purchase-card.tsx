"use client";

import { useLocale } from "next-intl";
import type { AdminPurchase } from "@/lib/api/types";
import { formatUsd } from "@/lib/format";
import { PurchaseStatusBadge } from "../status-badge";
import { HoldDeadline } from "./hold-deadline";
import { PurchaseActions } from "./purchase-actions";
import { TicketCell } from "./ticket-cell";
import type { PurchaseHandlers } from "./types";

/** A purchase on a phone: one card, the actions within thumb reach. */
export function PurchaseCard({ purchase: p, width, ...handlers }: { purchase: AdminPurchase; width: number } & PurchaseHandlers) {
  const locale = useLocale();
  return (
    <li className="grid gap-2 p-4" data-testid="purchase-card" data-reference={p.reference}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <div className="font-medium">{p.customerName}</div>
          <div className="truncate text-xs text-muted-foreground">{p.customerEmail}</div>
        </div>
        <PurchaseStatusBadge status={p.status} />
      </div>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="min-w-0 truncate">{p.raffleTitle}</span>
        <span className="whitespace-nowrap font-semibold tabular-nums">{formatUsd(p.totalAmount, locale)}</span>
      </div>
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span className="font-mono">{p.reference}</span>
        <span>{p.paymentMethod}</span>
      </div>
      <HoldDeadline purchase={p} />
      <TicketCell numbers={p.ticketNumbers} width={width} />
      <PurchaseActions purchase={p} layout="card" {...handlers} />
    </li>
  );
}
