"use client";

import { useLocale } from "next-intl";
import { TableCell, TableRow } from "@/components/ui/table";
import type { AdminPurchase } from "@/lib/api/types";
import { formatUsd } from "@/lib/format";
import { PurchaseStatusBadge } from "../status-badge";
import { HoldDeadline } from "./hold-deadline";
import { PurchaseActions } from "./purchase-actions";
import { TicketCell } from "./ticket-cell";
import type { PurchaseHandlers } from "./types";

/** A purchase in the table (tablets and up); the columns are PurchaseTable's header. */
export function PurchaseRow({ purchase: p, width, ...handlers }: { purchase: AdminPurchase; width: number } & PurchaseHandlers) {
  const locale = useLocale();
  return (
    <TableRow data-testid="purchase-row" data-reference={p.reference}>
      <TableCell>
        <div className="max-w-52 font-medium">{p.customerName}</div>
        <div className="max-w-52 truncate text-xs text-muted-foreground">{p.customerEmail}</div>
      </TableCell>
      <TableCell>
        <div className="line-clamp-2 max-w-44">{p.raffleTitle}</div>
        <div className="font-mono text-xs text-muted-foreground">{p.reference}</div>
      </TableCell>
      <TableCell>
        <TicketCell numbers={p.ticketNumbers} width={width} />
      </TableCell>
      <TableCell className="whitespace-nowrap text-right font-medium tabular-nums">{formatUsd(p.totalAmount, locale)}</TableCell>
      <TableCell className="whitespace-nowrap">{p.paymentMethod}</TableCell>
      <TableCell>
        <div className="grid justify-items-start gap-1">
          <PurchaseStatusBadge status={p.status} />
          <HoldDeadline purchase={p} />
        </div>
      </TableCell>
      <TableCell>
        <PurchaseActions purchase={p} layout="row" {...handlers} />
      </TableCell>
    </TableRow>
  );
}
