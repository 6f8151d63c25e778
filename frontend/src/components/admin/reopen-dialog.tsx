"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { AlertTriangle, Loader2, RotateCcw } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { reopenPurchase } from "@/lib/api/admin";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import type { AdminPurchase } from "@/lib/api/types";
import { padTicket } from "@/lib/format";
import { notify } from "@/lib/notify";
import { usePurchaseDecided, usePurchaseRefresh } from "@/lib/swr/cache";

type Refusal = { title: string; message: string; numbers: number[] };

/**
 * 'Reabrir compra' with confirmation: an expired purchase becomes pending again with its numbers
 * held and a fresh deadline, when they are still free. A refusal stays in the dialog in the
 * server's words, naming the numbers taken meanwhile (409 `numbers_no_longer_free`) or the
 * buyer's used allowance (422 on `ticketNumbers`).
 */
export function ReopenDialog({ purchase, ticketWidth, onClose, onDone }: { purchase: AdminPurchase; ticketWidth: number; onClose: () => void; onDone: () => void }) {
  const t = useTranslations("admin.reopen");
  const tc = useTranslations("admin.common");
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const decided = usePurchaseDecided();
  const refresh = usePurchaseRefresh();

  async function confirm() {
    setPending(true);
    setRefusal(null);
    try {
      const reopened = await reopenPurchase(purchase.id);
      notify.success(t("done"), { description: t("doneText", { reference: purchase.reference }) });
      decided(reopened);
      onDone();
    } catch (error) {
      setPending(false);
      const body = error instanceof ApiError ? error.body : null;
      if (body?.code === "numbers_no_longer_free") {
        setRefusal({ title: t("takenTitle"), message: body.message, numbers: body.numbers ?? [] });
        refresh();
        return;
      }
      const allowance = body?.code === "validation_failed" ? body.fields?.ticketNumbers : undefined;
      if (allowance) {
        setRefusal({ title: t("refusedTitle"), message: allowance, numbers: [] });
        return;
      }
      notify.error(t("error"), { description: errorMessage(error, t("error")) });
      // No longer expired (someone reopened or the data changed): show what it is now.
      if (body?.code === "purchase_not_expired") {
        refresh();
        onDone();
      }
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="reopen-dialog">
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("text", { reference: purchase.reference, name: purchase.customerName })}</DialogDescription>
        </DialogHeader>
        {refusal && (
          <Alert variant="destructive" data-testid="reopen-refused">
            <AlertTriangle aria-hidden />
            <AlertTitle>{refusal.title}</AlertTitle>
            <AlertDescription className="space-y-2">
              <p>{refusal.message}</p>
              {refusal.numbers.length > 0 && (
                <ul className="flex flex-wrap gap-1.5" aria-label={t("takenNumbers")}>
                  {refusal.numbers.map((n) => (
                    <li key={n} className="rounded-md bg-muted-foreground/30 px-2 py-0.5 font-mono text-sm line-through" data-testid="reopen-taken-number">
                      {padTicket(n, ticketWidth)}
                    </li>
                  ))}
                </ul>
              )}
            </AlertDescription>
          </Alert>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            {t("cancel")}
          </Button>
          <Button type="button" onClick={confirm} disabled={pending || refusal !== null} data-testid="confirm-reopen">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : <RotateCcw aria-hidden />}
            {pending ? t("saving") : t("confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
