"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { Loader2, PackageCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { claimUrgency } from "@/lib/admin/draw";
import { markPrizeDelivered } from "@/lib/api/admin";
import type { AdminPrize, AdminPrizeClaim } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { DRAW_LIMITS, deliverySchema, type DeliveryValues } from "@/lib/validations/draw";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import type { DrawWrite } from "./use-draw-write";
import { PhotoField } from "../photo-field";

/**
 * The winner's window to claim the prize: the days left (red in the last days, 'Vencido' once
 * past) until it is handed over, then when it was delivered and its photo.
 */
export function ClaimSection({ raffleId, prize, claim, write }: { raffleId: number; prize: AdminPrize; claim: AdminPrizeClaim; write: DrawWrite }) {
  const t = useTranslations("admin.draw.claim");
  const locale = useLocale();
  return (
    <section className="grid gap-3 border-t pt-3" aria-labelledby={`claim-${prize.position}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h5 id={`claim-${prize.position}`} className="font-semibold">
          {t("title")}
        </h5>
        {!claim.deliveredAt && <DaysLeft position={prize.position} daysLeft={claim.daysLeft} />}
      </div>
      <p className="text-sm text-muted-foreground">{t("deadline", { date: formatDateTime(claim.deadline, locale) })}</p>
      {claim.deliveredAt ? (
        <div className="grid gap-2" data-testid={`delivered-${prize.position}`}>
          <p className="flex items-center gap-2 text-sm font-medium text-success-strong">
            <PackageCheck aria-hidden className="size-4" />
            {t("delivered", { date: formatDateTime(claim.deliveredAt, locale) })}
          </p>
          {claim.deliveryPhoto && (
            <a href={claim.deliveryPhoto} target="_blank" rel="noopener noreferrer" className="w-fit">
              <img src={claim.deliveryPhoto} alt={t("photoAlt", { prize: prize.title })} className="max-h-48 max-w-full rounded-md border object-contain" loading="lazy" />
            </a>
          )}
        </div>
      ) : (
        <DeliveryForm raffleId={raffleId} prize={prize} write={write} />
      )}
    </section>
  );
}

/** Days left to claim, red from `CLAIM_URGENT_DAYS` down; `data-urgency` names the state for tests. */
function DaysLeft({ position, daysLeft }: { position: number; daysLeft: number }) {
  const t = useTranslations("admin.draw.claim");
  const urgency = claimUrgency(daysLeft);
  return (
    <Badge variant={urgency === "open" ? "secondary" : "destructive"} data-urgency={urgency} data-testid={`days-left-${position}`}>
      {urgency === "expired" ? t("expired") : t("daysLeft", { days: daysLeft })}
    </Badge>
  );
}

/** 'Marcar entregado', with an optional URL of a photo of the delivery. */
function DeliveryForm({ raffleId, prize, write }: { raffleId: number; prize: AdminPrize; write: DrawWrite }) {
  const t = useTranslations("admin.draw.claim");
  const { control, handleSubmit, setError, formState } = useForm<DeliveryValues>({ resolver: zodResolver(deliverySchema), defaultValues: { photo: "" } });
  const pending = formState.isSubmitting;

  async function submit(values: DeliveryValues) {
    await write(
      () => markPrizeDelivered(raffleId, prize.id, values.photo.trim() || null),
      { done: t("marked"), failed: t("markError") },
      (error) => applyServerFieldErrors(error, setError, ["photo"]),
    );
  }

  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-3">
      <FormField control={control} name="photo" label={t("photo")} hint={t("photoHint")}>
        {({ id, name, value, onChange, onBlur, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
          <PhotoField id={id} name={name} value={value} onChange={onChange} onBlur={onBlur} invalid={Boolean(invalid)} describedBy={describedBy} maxLength={DRAW_LIMITS.urlMax} />
        )}
      </FormField>
      <Button type="submit" variant="success" disabled={pending} className="w-full sm:w-fit" data-testid={`mark-delivered-${prize.position}`}>
        {pending ? <Loader2 aria-hidden className="animate-spin" /> : <PackageCheck aria-hidden />}
        {pending ? t("marking") : t("mark")}
      </Button>
    </form>
  );
}
