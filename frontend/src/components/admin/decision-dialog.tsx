"use client";

import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { AlertTriangle, ArrowLeft, Check, Loader2, X } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
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
 * required to reject (the button stays disabled while they are blank). Approving a purchase
 * with no payment proof says so and asks a second time before anything is sent (issue 31).
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
  const noProof = !rejecting && !purchase.paymentProof;
  // Without a proof, the first "Sí, aprobar" only leads to the second question.
  const [askedAgain, setAskedAgain] = useState(false);
  const firstOfTwo = noProof && !askedAgain;
  // The safe answer takes the focus: a reflex Enter goes back, it does not approve.
  const back = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (askedAgain) back.current?.focus();
  }, [askedAgain]);

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
          <DialogTitle>{askedAgain ? t("noProofTitle") : rejecting ? t("rejectTitle") : t("approveTitle")}</DialogTitle>
          <DialogDescription>
            {askedAgain
              ? t("noProofText", { reference: purchase.reference, name: purchase.customerName })
              : rejecting
                ? t("rejectText", { reference: purchase.reference, name: purchase.customerName })
                : t("approveText", { reference: purchase.reference, name: purchase.customerName })}
          </DialogDescription>
        </DialogHeader>
        {noProof && (
          <Alert variant="warning" data-testid="no-proof-warning">
            <AlertTriangle aria-hidden />
            <AlertDescription>{t("noProofWarning")}</AlertDescription>
          </Alert>
        )}
        <form onSubmit={handleSubmit(confirm)} noValidate className="grid gap-4">
          {/* The second question hides the notes; what was typed is still sent. */}
          <FormField control={control} name="notes" label={rejecting ? t("notes") : t("notesOptional")} className={askedAgain ? "hidden" : "gap-2"}>
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
            {askedAgain ? (
              <Button ref={back} type="button" variant="outline" onClick={() => setAskedAgain(false)} disabled={pending}>
                <ArrowLeft aria-hidden />
                {t("back")}
              </Button>
            ) : (
              <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
                {t("cancel")}
              </Button>
            )}
            <Button
              // The first of two answers only asks again: it submits nothing.
              key={firstOfTwo ? "ask-again" : "submit"}
              type={firstOfTwo ? "button" : "submit"}
              onClick={firstOfTwo ? () => setAskedAgain(true) : undefined}
              variant={rejecting ? "destructive" : "success"}
              disabled={pending || blocked}
              data-testid="confirm-decision"
              data-step={askedAgain ? "no-proof" : undefined}
            >
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : rejecting ? <X aria-hidden /> : <Check aria-hidden />}
              {pending ? t("saving") : rejecting ? t("confirmReject") : askedAgain ? t("confirmNoProof") : t("confirmApprove")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
