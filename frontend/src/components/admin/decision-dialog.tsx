"use client";

import { useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { Check, Loader2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { decidePurchase } from "@/lib/api/admin";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";
import type { Decision } from "./purchases/types";
import { usePurchaseDecided, usePurchaseRefresh } from "@/lib/swr/cache";
import { decisionSchema, type DecisionValues } from "@/lib/validations/decision";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";

/**
 * Approve or reject with confirmation (SPEC §2 "Dialogs", §4, §5): notes optional to approve,
 * required to reject (the button stays disabled while they are blank).
 */
export function DecisionDialog({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: () => void }) {
  const t = useTranslations("admin.decision");
  const tf = useTranslations("fieldErrors");
  const { purchase, status } = decision;
  const rejecting = status === "rejected";
  const schema = useMemo(() => decisionSchema(rejecting, tf("notesRequiredToReject")), [rejecting, tf]);
  const { control, handleSubmit, setError, formState } = useForm<DecisionValues>({ resolver: zodResolver(schema), defaultValues: { notes: purchase.adminNotes ?? "" } });
  const notes = useWatch({ control, name: "notes" });
  const pending = formState.isSubmitting;
  const refresh = usePurchaseRefresh();
  const decided = usePurchaseDecided();
  const blocked = rejecting && !notes.trim();

  async function confirm({ notes: adminNotes }: DecisionValues) {
    try {
      const updated = await decidePurchase(purchase.id, status, adminNotes);
      notify.success(t("updated"), {
        description: rejecting ? t("rejectedText", { reference: purchase.reference }) : t("approvedText", { reference: purchase.reference }),
      });
      decided(updated);
      onDone();
    } catch (error) {
      applyServerFieldErrors(error, setError, { adminNotes: "notes" });
      notify.error(t("error"), { description: errorMessage(error, t("error")) });
      // Someone else decided it meanwhile: show the current state.
      if (error instanceof ApiError && error.status === 409) {
        refresh();
        onDone();
      }
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
        <form onSubmit={handleSubmit(confirm)} noValidate className="grid gap-4">
          <FormField control={control} name="notes" label={rejecting ? t("notes") : t("notesOptional")} className="gap-2">
            {(field) => (
              <>
                <Textarea
                  {...field}
                  placeholder={t("notesPlaceholder")}
                  aria-describedby={[field["aria-describedby"], rejecting ? `${field.id}-required` : undefined, `${field.id}-mailed`].filter(Boolean).join(" ")}
                  aria-required={rejecting || undefined}
                  maxLength={1000}
                  autoFocus
                />
                {rejecting && (
                  <p id={`${field.id}-required`} className="text-xs text-muted-foreground">
                    {t("notesRequired")}
                  </p>
                )}
                {/* The approval and rejection e-mails quote the note (the API's mail job). */}
                <p id={`${field.id}-mailed`} className="text-xs text-muted-foreground" data-testid="notes-mailed">
                  {rejecting ? t("notesMailedReject") : t("notesMailedApprove")}
                </p>
              </>
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {t("cancel")}
            </Button>
            <Button type="submit" variant={rejecting ? "destructive" : "success"} disabled={pending || blocked} data-testid="confirm-decision">
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : rejecting ? <X aria-hidden /> : <Check aria-hidden />}
              {pending ? t("saving") : rejecting ? t("confirmReject") : t("confirmApprove")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
