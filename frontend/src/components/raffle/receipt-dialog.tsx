"use client";

import { useId, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { notify as toast } from "@/lib/notify";
import { CheckCircle2, ChevronDown, ChevronUp, Download, FlaskConical, Mail } from "lucide-react";
import { BuyerLink } from "./buyer-link";
import { ProofRetry } from "./proof-retry";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { PurchaseResponse } from "@/lib/api/types";
import { formatCount, formatUsd } from "@/lib/format";
import { openInvoice } from "@/lib/invoice";
import { RECEIPT_NUMBERS } from "@/lib/picker";

/**
 * The on-screen receipt after a purchase (SPEC §2 "Receipt dialog"). When the proof did not
 * arrive, it says so and why (`proofProblem`), and offers to send it again. The first three
 * numbers and '+N más' (SPEC §9) open onto all of them ('Ver todos', issue 31).
 */
export function ReceiptDialog({ receipt, proofProblem = null, onClose }: { receipt: PurchaseResponse | null; proofProblem?: string | null; onClose: () => void }) {
  const t = useTranslations("receipt");
  const tp = useTranslations("picker");
  const tc = useTranslations("common");
  const locale = useLocale();
  const [allShown, setAllShown] = useState(false);
  const listId = useId();
  if (!receipt) return null;
  const { purchase, testMode, purchaseToken } = receipt;
  const labels = purchase.ticketLabels.length ? purchase.ticketLabels : purchase.ticketNumbers.map((n) => String(n).padStart(4, "0"));
  const shown = labels.slice(0, RECEIPT_NUMBERS);
  const more = labels.length - shown.length;

  async function download() {
    if (!purchaseToken) return;
    const outcome = await openInvoice(purchase.id, purchaseToken);
    if (!outcome.ok) {
      toast.error(outcome.reason === "blocked" ? t("popupBlocked") : (outcome.message ?? t("invoiceError")));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={tc("close")} data-testid="receipt-dialog">
        <DialogHeader>
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-success/15 text-success-strong sm:mx-0">
            {testMode ? <FlaskConical aria-hidden className="size-6" /> : <CheckCircle2 aria-hidden className="size-6" />}
          </div>
          <DialogTitle>{testMode ? t("testTitle") : t("title")}</DialogTitle>
          <DialogDescription>{purchase.raffleTitle}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{t("raffle")}</dt>
          <dd className="font-medium">{purchase.raffleTitle}</dd>
          <dt className="text-muted-foreground">{t("tickets")}</dt>
          <dd className="grid min-w-0 gap-2">
            <div className="flex flex-wrap items-center gap-1">
              {shown.map((label) => (
                <span key={label} className="rounded bg-primary px-1.5 py-0.5 font-mono text-xs text-primary-foreground" data-testid="receipt-number">{label}</span>
              ))}
              {more > 0 && <span className="text-xs">{tp("more", { count: more })}</span>}
              {more > 0 && (
                <Button
                  type="button"
                  variant="link"
                  size="sm"
                  className="h-auto px-1 py-0 text-xs"
                  aria-expanded={allShown}
                  aria-controls={listId}
                  onClick={() => setAllShown((v) => !v)}
                  data-testid="receipt-show-all"
                >
                  {allShown ? t("showFewer") : t("showAll", { count: formatCount(labels.length, locale) })}
                  {allShown ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
                </Button>
              )}
            </div>
            {more > 0 && allShown && (
              <ul
                id={listId}
                aria-label={t("allNumbers", { count: formatCount(labels.length, locale) })}
                className="grid max-h-40 grid-cols-[repeat(auto-fill,minmax(3.25rem,1fr))] gap-1 overflow-y-auto rounded-md border p-2"
                data-testid="receipt-all-numbers"
              >
                {labels.map((label) => (
                  <li key={label} className="rounded bg-primary/10 px-1 py-0.5 text-center font-mono text-xs">{label}</li>
                ))}
              </ul>
            )}
          </dd>
          <dt className="text-muted-foreground">{t("total")}</dt>
          <dd className="font-semibold">{formatUsd(purchase.totalAmount, locale)}</dd>
          <dt className="text-muted-foreground">{t("reference")}</dt>
          <dd className="font-mono font-semibold" data-testid="receipt-reference">{purchase.reference}</dd>
          <dt className="text-muted-foreground">{t("status")}</dt>
          <dd>
            <Badge variant={testMode ? "secondary" : "warning"}>{testMode ? t("testMode") : t("processing")}</Badge>
          </dd>
        </dl>
        {!testMode && receipt.buyerPagePath && <BuyerLink path={receipt.buyerPagePath} />}
        {!testMode && proofProblem && purchaseToken && (
          <ProofRetry purchaseId={purchase.id} purchaseToken={purchaseToken} reference={purchase.reference} problem={proofProblem} />
        )}
        {/* A test purchase sends no e-mail (it is never pending, so never approved). */}
        <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-sm" data-testid="receipt-email-note">
          <Mail aria-hidden className="mt-0.5 size-4 shrink-0" />
          {testMode ? t("testNoEmail") : t("emailNote")}
        </p>
        <DialogFooter>
          {purchaseToken && (
            <Button type="button" variant="outline" onClick={download}>
              <Download aria-hidden />
              {t("download")}
            </Button>
          )}
          <Button type="button" onClick={onClose}>{t("continue")}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
