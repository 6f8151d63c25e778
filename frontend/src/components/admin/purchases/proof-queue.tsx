"use client";

import { useEffect, useState } from "react";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { Check, Loader2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import {
  bulkCandidates,
  keepShown,
  QUEUE_FILTERS,
  QUEUE_ORDERS,
  selectAllState,
  toggleAll,
  toggleOne,
  type BulkAction,
  type QueueFilter,
  type QueueOrder,
} from "@/lib/admin/proof-queue";
import type { QueuedProof } from "@/lib/api/types";
import { useProofQueue } from "@/lib/swr/use-proof-queue";
import { QueueList } from "./queue-list";
import { ListStates } from "../list-states";

const BulkDecisionDialog = dynamic(() => import("./bulk-decision-dialog").then((m) => m.BulkDecisionDialog), { ssr: false });

/** Now, renewed every minute (the ages of the queue). */
function useNow(ms = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * 'Cola de revisión' (issue 16): the pending purchases whose proof is attached, filtered by the
 * light their check came to and oldest (or newest) first, 'Cargar más' for the next page. The
 * selected green ones are approved and the red ones rejected in one go, after a confirmation.
 * The queue is read again after any decision and with each live notice (cache.ts).
 */
export function ProofQueueView({ onOpen }: { onOpen: (purchaseId: number) => void }) {
  const t = useTranslations("admin.queue");
  const [light, setLight] = useState<QueueFilter>("all");
  const [order, setOrder] = useState<QueueOrder>("oldest");
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  // The bulk decision being confirmed, with the purchases it sends (as they were when asked).
  const [bulk, setBulk] = useState<{ action: BulkAction; items: QueuedProof[] } | null>(null);
  const now = useNow();
  const { data, error, isLoading, isValidating, mutate, loadMore } = useProofQueue(light, order);
  const items = data?.items ?? [];
  // Only the proofs shown count: a decided one has left the queue.
  const selected = keepShown(items, chosen);
  const greens = bulkCandidates(items, selected, "approved");
  const reds = bulkCandidates(items, selected, "rejected");
  const allState = selectAllState(items, selected);

  return (
    <Card className="gap-0 py-0" data-testid="proof-queue">
      <div className="grid gap-3 border-b p-4 sm:grid-cols-2 lg:grid-cols-4">
        <p className="text-sm text-muted-foreground sm:col-span-2 lg:col-span-4">{t("intro")}</p>
        <div className="grid gap-1.5">
          <Label htmlFor="queue-light">{t("filterLight")}</Label>
          <NativeSelect id="queue-light" value={light} onChange={(e) => setLight(e.target.value as QueueFilter)} className="h-10 text-sm">
            {QUEUE_FILTERS.map((value) => (
              <option key={value} value={value}>
                {t(`lights.${value}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="queue-order">{t("order")}</Label>
          <NativeSelect id="queue-order" value={order} onChange={(e) => setOrder(e.target.value as QueueOrder)} className="h-10 text-sm">
            {QUEUE_ORDERS.map((value) => (
              <option key={value} value={value}>
                {t(`orders.${value}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-4 py-2 text-sm">
        <div className="flex items-center gap-3 text-muted-foreground">
          <label className="flex items-center gap-2 sm:hidden">
            <Checkbox checked={allState} onCheckedChange={() => setChosen(toggleAll(items, selected))} disabled={items.length === 0} data-testid="queue-select-all-cards" />
            <span>{t("selectAll")}</span>
          </label>
          <span aria-live="polite" data-testid="queue-selected">
            {t("selected", { count: selected.size })}
          </span>
          <span className="max-sm:hidden" data-testid="queue-shown">
            {t("shown", { count: items.length })}
          </span>
          {isValidating && data && <Loader2 aria-hidden className="size-4 animate-spin" />}
        </div>
        <div className="flex flex-wrap gap-2 max-sm:w-full">
          <Button type="button" variant="success" size="sm" className="max-sm:flex-1" disabled={greens.length === 0} onClick={() => setBulk({ action: "approved", items: greens })} data-testid="bulk-approve">
            <Check aria-hidden />
            {t("approveGreens", { count: greens.length })}
          </Button>
          <Button type="button" variant="destructive" size="sm" className="max-sm:flex-1" disabled={reds.length === 0} onClick={() => setBulk({ action: "rejected", items: reds })} data-testid="bulk-reject">
            <X aria-hidden />
            {t("rejectReds", { count: reds.length })}
          </Button>
        </div>
      </div>

      <ListStates
        failed={Boolean(error) && !data}
        loading={isLoading && !data}
        empty={items.length === 0}
        errorText={t("loadError")}
        retryText={t("retry")}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        testId="queue"
      >
        <QueueList
          items={items}
          selected={selected}
          allState={allState}
          onToggleAll={() => setChosen(toggleAll(items, selected))}
          onToggle={(id, on) => setChosen(toggleOne(selected, id, on))}
          onOpen={onOpen}
          now={now}
        />
      </ListStates>

      {data?.nextAfter != null && (
        <div className="border-t p-3 text-center">
          <Button type="button" variant="outline" onClick={loadMore} disabled={isValidating} data-testid="queue-load-more">
            {isValidating && <Loader2 aria-hidden className="animate-spin" />}
            {t("loadMore")}
          </Button>
        </div>
      )}

      {bulk && (
        <BulkDecisionDialog
          action={bulk.action}
          items={bulk.items}
          onClose={() => setBulk(null)}
          onDone={() => {
            setBulk(null);
            setChosen(new Set());
          }}
        />
      )}
    </Card>
  );
}
