"use client";

import { useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { AlertTriangle, Copy, Loader2, Lock, Snowflake } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { freezeBlockers } from "@/lib/admin/draw";
import { freezeDraw } from "@/lib/api/admin";
import type { AdminDrawView, Commitment } from "@/lib/api/types";
import { formatCount, formatDateTime } from "@/lib/format";
import { notify } from "@/lib/notify";
import type { DrawWrite } from "./use-draw-write";

/**
 * When sales close, what still blocks the freeze (open sales, purchases awaiting a decision, no
 * prizes), the freeze itself behind a confirmation, and once frozen the published commitment.
 */
export function FreezeSection({ raffleId, view, write }: { raffleId: number; view: AdminDrawView; write: DrawWrite }) {
  const t = useTranslations("admin.draw.freeze");
  const locale = useLocale();
  const [confirming, setConfirming] = useState(false);
  const blockers = freezeBlockers(view);

  return (
    <div className="grid gap-4">
      <dl className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{t("salesClose")}</dt>
        <dd className="font-medium" data-testid="draw-sales-close">
          {view.salesCloseAt ? formatDateTime(view.salesCloseAt, locale) : t("noClose")}
        </dd>
        <dd>
          <Badge variant={view.salesOpen ? "success" : "secondary"} data-testid="draw-sales-state">
            {view.salesOpen ? t("salesOpen") : t("salesClosed")}
          </Badge>
        </dd>
      </dl>
      {view.commitment ? (
        <CommitmentFacts commitment={view.commitment} />
      ) : (
        <>
          {view.pendingPurchases.length > 0 && (
            <Alert variant="warning" data-testid="draw-pending-purchases">
              <AlertTriangle aria-hidden />
              <AlertTitle>{t("pendingTitle", { count: view.pendingPurchases.length })}</AlertTitle>
              <AlertDescription>
                <ul className="grid gap-1">
                  {view.pendingPurchases.map((p) => (
                    <li key={p.id} className="flex flex-wrap gap-x-2 text-foreground" data-testid="draw-pending-purchase">
                      <span className="font-mono">{p.reference}</span>
                      <span className="min-w-0 break-words">{p.customerName}</span>
                      <span className="text-muted-foreground">{formatDateTime(p.createdAt, locale, "short")}</span>
                    </li>
                  ))}
                </ul>
                <p>{t("pendingHint")}</p>
              </AlertDescription>
            </Alert>
          )}
          <p className="text-sm text-muted-foreground">{t("explain")}</p>
          {blockers.includes("salesOpen") && <p className="text-sm">{t("waitSales")}</p>}
          {blockers.includes("noPrizes") && <p className="text-sm">{t("needPrizes")}</p>}
          <Button type="button" className="w-full sm:w-fit" disabled={blockers.length > 0} onClick={() => setConfirming(true)} data-testid="freeze-draw">
            <Snowflake aria-hidden />
            {t("button")}
          </Button>
          {confirming && (
            <FreezeConfirm
              onConfirm={() => write(() => freezeDraw(raffleId), { done: t("done"), failed: t("error") })}
              onClose={() => setConfirming(false)}
            />
          )}
        </>
      )}
    </div>
  );
}

/** The published commitment: the root (to copy), how many numbers the list holds, and when it was frozen. */
function CommitmentFacts({ commitment }: { commitment: Commitment }) {
  const t = useTranslations("admin.draw.freeze");
  const locale = useLocale();
  return (
    <div className="grid gap-3 rounded-lg border bg-muted/40 p-3 sm:p-4" data-testid="draw-commitment">
      <p className="flex items-center gap-2 font-medium">
        <Lock aria-hidden className="size-4" />
        {t("frozen")}
      </p>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div className="grid gap-1 sm:col-span-2">
          <dt className="text-muted-foreground">{t("root")}</dt>
          <dd className="flex items-start gap-2">
            <code className="min-w-0 flex-1 break-all rounded bg-background px-2 py-1 font-mono text-xs" data-testid="commitment-root">
              {commitment.root}
            </code>
            <Button
              type="button"
              variant="outline"
              size="icon"
              className="size-9"
              aria-label={t("copy")}
              title={t("copy")}
              onClick={() => void navigator.clipboard?.writeText(commitment.root).then(() => notify.success(t("copied")), () => undefined)}
            >
              <Copy aria-hidden />
            </Button>
          </dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{t("size")}</dt>
          <dd className="tabular-nums" data-testid="commitment-size">
            {formatCount(commitment.size, locale)}
          </dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{t("frozenAt")}</dt>
          <dd data-testid="commitment-frozen-at">{formatDateTime(commitment.frozenAt, locale)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** The freeze's confirmation: irreversible, and every buyer gets their proof by e-mail. */
function FreezeConfirm({ onConfirm, onClose }: { onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const t = useTranslations("admin.draw.freeze");
  const tc = useTranslations("admin.common");
  const [pending, setPending] = useState(false);
  async function confirm() {
    setPending(true);
    // Closed either way: on failure the toast says why and the section shows the state read again.
    await onConfirm();
    onClose();
  }
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="freeze-dialog">
        <DialogHeader>
          <DialogTitle>{t("confirmTitle")}</DialogTitle>
          <DialogDescription>{t("confirmText")}</DialogDescription>
        </DialogHeader>
        <p className="text-sm">{t("confirmMail")}</p>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            {tc("cancel")}
          </Button>
          <Button type="button" onClick={confirm} disabled={pending} data-testid="confirm-freeze">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Snowflake aria-hidden />}
            {pending ? t("freezing") : t("confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
