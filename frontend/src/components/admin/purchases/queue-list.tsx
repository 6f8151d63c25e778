"use client";

import { useLocale, useTranslations } from "next-intl";
import { Eye } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { QueuedProof } from "@/lib/api/types";
import { mainSignal, queuedLight } from "@/lib/admin/proof-queue";
import { formatAge, formatDateTime } from "@/lib/format";
import { expectedAmount, SignalText } from "../proof-check-panel";
import { ProofLightBadge } from "../proof-light-badge";

export interface QueueListProps {
  items: QueuedProof[];
  selected: ReadonlySet<number>;
  allState: boolean | "indeterminate";
  onToggleAll: () => void;
  onToggle: (id: number, on: boolean) => void;
  /** 'Ver', or another purchase a signal names: opens it in the purchase's dialog. */
  onOpen: (purchaseId: number) => void;
  /** Now, for the ages ('hace 2 h'). */
  now: number;
}

/**
 * What the queue says first about a proof: its first signal that is not green, worded as the
 * purchase's dialog words it; else the light's meaning; 'not checked yet' without a light.
 */
export function QueueReason({ item, onOpen }: { item: QueuedProof; onOpen?: (purchaseId: number) => void }) {
  const t = useTranslations("admin.queue");
  const tc = useTranslations("admin.detail.check");
  const light = queuedLight(item);
  const signal = mainSignal(item);
  if (light === null) return <>{t("uncheckedReason")}</>;
  if (signal) return <SignalText signal={signal} onOpenPurchase={onOpen} />;
  return <>{tc(`meanings.${light}`)}</>;
}

/** The queue: cards on phones, a table from `sm` up, each proof with its checkbox. */
export function QueueList({ items, selected, allState, onToggleAll, onToggle, onOpen, now }: QueueListProps) {
  const t = useTranslations("admin.queue");
  const tp = useTranslations("admin.purchases");
  const locale = useLocale();
  const age = (item: QueuedProof) => (
    <time dateTime={item.purchase.createdAt} title={formatDateTime(item.purchase.createdAt, locale)} className="whitespace-nowrap">
      {formatAge(item.purchase.createdAt, locale, now)}
    </time>
  );
  const check = (item: QueuedProof) => (
    <Checkbox
      checked={selected.has(item.purchase.id)}
      onCheckedChange={(on) => onToggle(item.purchase.id, on === true)}
      aria-label={t("select", { reference: item.purchase.reference })}
      data-testid="queue-select"
    />
  );
  const view = (item: QueuedProof, wide: boolean) => (
    <Button type="button" variant="outline" size="sm" className={wide ? "w-full" : undefined} onClick={() => onOpen(item.purchase.id)} aria-label={tp("viewLabel", { reference: item.purchase.reference })}>
      <Eye aria-hidden />
      {tp("view")}
    </Button>
  );
  return (
    <>
      <ul className="divide-y sm:hidden" data-testid="queue-cards">
        {items.map((item) => (
          <li key={item.purchase.id} className="grid gap-2 p-4" data-testid="queue-item" data-reference={item.purchase.reference} data-light={item.light ?? "none"}>
            <div className="flex items-start gap-3">
              <div className="pt-0.5">{check(item)}</div>
              <div className="grid min-w-0 flex-1 gap-1">
                <div className="flex items-start justify-between gap-2">
                  <span className="min-w-0 truncate font-medium">{item.purchase.customerName}</span>
                  <ProofLightBadge light={queuedLight(item)} />
                </div>
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span className="min-w-0 truncate font-mono text-xs">{item.purchase.reference}</span>
                  <span className="whitespace-nowrap font-semibold tabular-nums">{expectedAmount(item.purchase, locale)}</span>
                </div>
                <p className="break-words text-sm text-muted-foreground" data-testid="queue-reason">
                  <QueueReason item={item} onOpen={onOpen} />
                </p>
                <p className="text-xs text-muted-foreground">{age(item)}</p>
              </div>
            </div>
            {view(item, true)}
          </li>
        ))}
      </ul>
      <div className="max-sm:hidden">
        <Table data-testid="queue-table">
          <TableHeader>
            <TableRow>
              <TableHead className="w-10">
                <Checkbox checked={allState} onCheckedChange={onToggleAll} aria-label={t("selectAll")} data-testid="queue-select-all" />
              </TableHead>
              <TableHead>{t("light")}</TableHead>
              <TableHead>{t("reference")}</TableHead>
              <TableHead>{t("customer")}</TableHead>
              <TableHead className="text-right">{t("total")}</TableHead>
              <TableHead>{t("age")}</TableHead>
              <TableHead>{t("reason")}</TableHead>
              <TableHead className="text-right">{t("actions")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.purchase.id} data-testid="queue-row" data-reference={item.purchase.reference} data-light={item.light ?? "none"} data-state={selected.has(item.purchase.id) ? "selected" : undefined}>
                <TableCell>{check(item)}</TableCell>
                <TableCell>
                  <ProofLightBadge light={queuedLight(item)} />
                </TableCell>
                <TableCell className="whitespace-nowrap font-mono text-xs">{item.purchase.reference}</TableCell>
                <TableCell>
                  <div className="max-w-44 truncate font-medium">{item.purchase.customerName}</div>
                </TableCell>
                <TableCell className="whitespace-nowrap text-right font-medium tabular-nums">{expectedAmount(item.purchase, locale)}</TableCell>
                <TableCell className="text-muted-foreground">{age(item)}</TableCell>
                <TableCell>
                  <div className="min-w-48 max-w-80 whitespace-normal break-words text-sm" data-testid="queue-reason">
                    <QueueReason item={item} onOpen={onOpen} />
                  </div>
                </TableCell>
                <TableCell className="text-right">{view(item, false)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
