"use client";

import { useTranslations } from "next-intl";
import { Loader2 } from "lucide-react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { AdminPurchase } from "@/lib/api/types";
import { usePurchase } from "@/lib/swr/use-purchases";
import { PaymentProof } from "./payment-proof";

/**
 * 'Comparar': this purchase's proof beside the one of the purchase a check found reused (the
 * same file, the same picture, the same reference), each under its reference and customer;
 * one above the other on a phone. The other purchase is read fresh (its proof link lasts minutes).
 */
export function ProofCompareDialog({
  purchase,
  otherId,
  returnFocus,
  onClose,
}: {
  purchase: AdminPurchase;
  otherId: number;
  /** Where the focus goes back to once closed ('Comparar' in the purchase's dialog). */
  returnFocus?: HTMLElement | null;
  onClose: () => void;
}) {
  const t = useTranslations("admin.detail.check");
  const td = useTranslations("admin.detail");
  const tc = useTranslations("admin.common");
  const { data, error } = usePurchase(otherId);
  const other = data?.id === otherId ? data : undefined;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-w-2xl lg:max-w-5xl"
        closeLabel={tc("close")}
        data-testid="proof-compare"
        // Opened over the purchase's dialog as it mounts: the focus is moved in a frame later, once
        // that dialog's own focus handling is done (else it stays on the dialog beneath).
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          const content = event.currentTarget as HTMLElement;
          requestAnimationFrame(() => content.focus());
        }}
        onCloseAutoFocus={(event) => {
          if (!returnFocus?.isConnected) return;
          event.preventDefault();
          returnFocus.focus();
        }}
        tabIndex={-1}
      >
        <DialogHeader>
          <DialogTitle>{t("compareTitle")}</DialogTitle>
          <DialogDescription>{t("compareText", { reference: purchase.reference, id: otherId })}</DialogDescription>
        </DialogHeader>
        <div className="grid min-w-0 gap-5 sm:grid-cols-2">
          <ProofColumn label={t("thisPurchase")} purchase={purchase} testId="compare-this" />
          {other ? (
            <ProofColumn label={t("otherPurchase", { id: otherId })} purchase={other} testId="compare-other" />
          ) : (
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="compare-other-loading">
              {error ? (
                tc("error")
              ) : (
                <>
                  <Loader2 aria-hidden className="size-4 animate-spin" />
                  {td("loading")}
                </>
              )}
            </p>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function ProofColumn({ label, purchase: p, testId }: { label: string; purchase: AdminPurchase; testId: string }) {
  const t = useTranslations("admin.detail");
  return (
    <section className="grid min-w-0 content-start gap-2" aria-label={`${label}: ${p.reference}`} data-testid={testId} data-purchase-id={p.id}>
      <div className="min-w-0">
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</p>
        <p className="truncate font-mono font-semibold">{p.reference}</p>
        <p className="truncate text-sm">{p.customerName}</p>
      </div>
      {p.paymentProof ? <PaymentProof key={p.paymentProof} link={p.paymentProof} customerName={p.customerName} /> : <p className="text-sm text-muted-foreground">{t("noProof")}</p>}
    </section>
  );
}
