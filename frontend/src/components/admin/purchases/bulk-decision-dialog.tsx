"use client";

import { useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { Check, Loader2, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { bulkDecide } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { QueuedProof } from "@/lib/api/types";
import { bulkOutcome, type BulkAction } from "@/lib/admin/proof-queue";
import { notify } from "@/lib/notify";
import { usePurchaseRefresh } from "@/lib/swr/cache";
import { decisionSchema, type DecisionValues } from "@/lib/validations/decision";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { expectedAmount } from "../proof-check-panel";

/**
 * 'Aprobar verdes' / 'Rechazar rojas' confirmed: the purchases to be sent (reference, customer,
 * amount), that each buyer gets their e-mail, and to reject one note for all, required as for a
 * single rejection. The toast counts those decided and names those left as they were.
 */
export function BulkDecisionDialog({ action, items, onClose, onDone }: { action: BulkAction; items: QueuedProof[]; onClose: () => void; onDone: () => void }) {
  const t = useTranslations("admin.queue.bulk");
  const td = useTranslations("admin.decision");
  const tf = useTranslations("fieldErrors");
  const locale = useLocale();
  const rejecting = action === "rejected";
  const schema = useMemo(() => decisionSchema(rejecting, tf("notesRequiredToReject")), [rejecting, tf]);
  const { control, handleSubmit, setError, formState } = useForm<DecisionValues>({ resolver: zodResolver(schema), defaultValues: { notes: "" } });
  const notes = useWatch({ control, name: "notes" });
  const pending = formState.isSubmitting;
  const refresh = usePurchaseRefresh();
  const blocked = items.length === 0 || (rejecting && !notes.trim());

  async function confirm({ notes: adminNotes }: DecisionValues) {
    try {
      const result = await bulkDecide(
        items.map((item) => item.purchase.id),
        action,
        rejecting ? adminNotes : "",
      );
      const { decided, skipped } = bulkOutcome(result, items);
      const title = rejecting ? t("rejected", { count: decided }) : t("approved", { count: decided });
      const description = skipped.length ? t("skipped", { references: skipped.join(", ") }) : undefined;
      if (decided > 0) notify.success(title, { description, duration: skipped.length ? 10_000 : undefined });
      else notify.warning(title, { description, duration: 10_000 });
      refresh();
      onDone();
    } catch (error) {
      applyServerFieldErrors(error, setError, { adminNotes: "notes" });
      notify.error(t("error"), { description: errorMessage(error, t("error")) });
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent data-testid="bulk-decision-dialog" data-action={action} className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{rejecting ? t("rejectTitle", { count: items.length }) : t("approveTitle", { count: items.length })}</DialogTitle>
          <DialogDescription>{rejecting ? t("rejectText") : t("approveText")}</DialogDescription>
        </DialogHeader>
        <ul aria-label={t("listLabel")} className="grid max-h-60 divide-y overflow-y-auto rounded-md border text-sm" data-testid="bulk-items">
          {items.map(({ purchase: p }) => (
            <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 px-3 py-2" data-reference={p.reference}>
              <span className="min-w-0">
                <span className="font-mono text-xs font-semibold">{p.reference}</span> <span className="break-words">{p.customerName}</span>
              </span>
              <span className="whitespace-nowrap font-semibold tabular-nums">{expectedAmount(p, locale)}</span>
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">{t("onlyLight")}</p>
        <form onSubmit={handleSubmit(confirm)} noValidate className="grid gap-4">
          {rejecting && (
            <FormField control={control} name="notes" label={t("notes")} className="gap-2">
              {(field) => (
                <>
                  <Textarea
                    {...field}
                    placeholder={td("notesPlaceholder")}
                    aria-describedby={[field["aria-describedby"], `${field.id}-required`].filter(Boolean).join(" ")}
                    aria-required
                    maxLength={1000}
                    autoFocus
                  />
                  <p id={`${field.id}-required`} className="text-xs text-muted-foreground">
                    {t("notesRequired")} {td("notesMailedReject")}
                  </p>
                </>
              )}
            </FormField>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {td("cancel")}
            </Button>
            <Button type="submit" variant={rejecting ? "destructive" : "success"} disabled={pending || blocked} data-testid="confirm-bulk" autoFocus={!rejecting}>
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : rejecting ? <X aria-hidden /> : <Check aria-hidden />}
              {pending ? td("saving") : rejecting ? t("confirmReject") : t("confirmApprove")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
