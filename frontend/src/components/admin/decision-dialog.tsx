"use client";

import { useId, useState } from "react";
import { useTranslations } from "next-intl";
import { useSWRConfig } from "swr";
import { Check, Loader2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { decidePurchase } from "@/lib/api/admin";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";
import type { Decision } from "./purchases-panel";
import { usePurchaseRefresh } from "./use-purchase-refresh";

/**
 * Approve or reject with confirmation (SPEC §2 "Dialogs", §4, §5): notes optional to approve,
 * required to reject (the button stays disabled while they are blank).
 */
export function DecisionDialog({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: () => void }) {
  const t = useTranslations("admin.decision");
  const [notes, setNotes] = useState(decision.purchase.adminNotes ?? "");
  const [pending, setPending] = useState(false);
  const refresh = usePurchaseRefresh();
  const { mutate } = useSWRConfig();
  const notesId = useId();
  const hintId = useId();
  const { purchase, status } = decision;
  const rejecting = status === "rejected";
  const blocked = rejecting && !notes.trim();

  async function confirm() {
    if (blocked) return;
    setPending(true);
    try {
      const updated = await decidePurchase(purchase.id, status, notes);
      // The detail dialog reads this key: it must not show the pending copy again.
      void mutate(["/api/admin/purchases", purchase.id], updated, { revalidate: false });
      notify.success(t("updated"), {
        description: rejecting ? t("rejectedText", { reference: purchase.reference }) : t("approvedText", { reference: purchase.reference }),
      });
      refresh();
      onDone();
    } catch (error) {
      notify.error(t("error"), { description: errorMessage(error, t("error")) });
      // Someone else decided it meanwhile: show the current state.
      if (error instanceof ApiError && error.status === 409) {
        refresh();
        onDone();
      }
      setPending(false);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent data-testid="decision-dialog" className="max-w-md">
        <DialogHeader>
          <DialogTitle>{rejecting ? t("rejectTitle") : t("approveTitle")}</DialogTitle>
          <DialogDescription>
            {rejecting
              ? t("rejectText", { reference: purchase.reference, name: purchase.customerName })
              : t("approveText", { reference: purchase.reference, name: purchase.customerName })}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={notesId}>{rejecting ? t("notes") : t("notesOptional")}</Label>
          <Textarea
            id={notesId}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            placeholder={t("notesPlaceholder")}
            aria-describedby={rejecting ? `${hintId} ${hintId}-mailed` : `${hintId}-mailed`}
            aria-required={rejecting || undefined}
            maxLength={1000}
            autoFocus
          />
          {rejecting && (
            <p id={hintId} className="text-xs text-muted-foreground">
              {t("notesRequired")}
            </p>
          )}
          {/* The approval and rejection e-mails quote the note (the API's mail job). */}
          <p id={`${hintId}-mailed`} className="text-xs text-muted-foreground" data-testid="notes-mailed">
            {rejecting ? t("notesMailedReject") : t("notesMailedApprove")}
          </p>
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            {t("cancel")}
          </Button>
          <Button type="button" variant={rejecting ? "destructive" : "success"} onClick={confirm} disabled={pending || blocked} data-testid="confirm-decision">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : rejecting ? <X aria-hidden /> : <Check aria-hidden />}
            {pending ? t("saving") : rejecting ? t("confirmReject") : t("confirmApprove")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
