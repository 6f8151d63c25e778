"use client";

import { useEffect, useMemo, useState } from "react";
import { useForm, useWatch, type FieldErrors } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { endOfDayUtc } from "@/lib/admin/dates";
import { firstRoundAfterClose } from "@/lib/admin/draw";
import { saveRaffle } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { Raffle } from "@/lib/api/types";
import { dayOfUtc, todayUtc } from "@/lib/admin/dates";
import { formatCount } from "@/lib/format";
import { notify } from "@/lib/notify";
import {
  CLOSE_HOURS,
  HOLD_MINUTES,
  MAX_TICKETS_LIMIT,
  RAFFLE_DEFAULTS,
  RAFFLE_STATUSES,
  raffleInput,
  raffleSchema,
  type RaffleDraft,
} from "@/lib/validations/raffle";
import { DRAW_LIMITS, emptyPrize, prizeInputOf, prizeServerFields, prizesSchema, type PrizesValues } from "@/lib/validations/draw";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { DateField } from "./date-field";
import { PrizeFields } from "./draw/prize-fields";
import { PhotoField } from "./photo-field";

function draftOf(raffle: Raffle | null): RaffleDraft {
  if (!raffle) {
    return {
      title: "",
      description: "",
      price: RAFFLE_DEFAULTS.price,
      maxTickets: RAFFLE_DEFAULTS.maxTickets,
      minTicketsPerPurchase: "",
      maxTicketsPerPurchase: "",
      drawDate: todayUtc(),
      status: RAFFLE_DEFAULTS.status,
      image: "",
      holdMinutes: RAFFLE_DEFAULTS.holdMinutes,
      salesCloseHoursBeforeDraw: RAFFLE_DEFAULTS.salesCloseHoursBeforeDraw,
    };
  }
  return {
    title: raffle.title,
    description: raffle.description,
    price: raffle.price,
    maxTickets: String(raffle.maxTickets),
    minTicketsPerPurchase: raffle.minTicketsPerPurchase?.toString() ?? "",
    maxTicketsPerPurchase: raffle.maxTicketsPerPurchase?.toString() ?? "",
    drawDate: dayOfUtc(raffle.drawDate),
    status: raffle.status,
    image: raffle.image,
    // An answer from before the API had them falls back to the defaults.
    holdMinutes: String(raffle.holdMinutes ?? RAFFLE_DEFAULTS.holdMinutes),
    salesCloseHoursBeforeDraw: String(raffle.salesCloseHoursBeforeDraw ?? RAFFLE_DEFAULTS.salesCloseHoursBeforeDraw),
  };
}

const RAFFLE_FIELDS = [
  "title",
  "description",
  "price",
  "maxTickets",
  "minTicketsPerPurchase",
  "maxTicketsPerPurchase",
  "drawDate",
  "status",
  "image",
  "holdMinutes",
  "salesCloseHoursBeforeDraw",
] as const;

/**
 * Create or edit a raffle (SPEC §2 "Dialogs", §5 "Raffle form"). A new raffle is created with
 * its first prize and the public result it is drawn from, so what decides the winner is fixed
 * before the first sale; without them (or without the draws permission to set them) it is
 * saved unpublished, and the toast says why.
 */
export function RaffleDialog({ raffle, draws, onClose, onSaved }: { raffle: Raffle | null; draws: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("admin.raffleForm");
  const tr = useTranslations("admin.raffles");
  const tc = useTranslations("admin.common");
  const tf = useTranslations("fieldErrors");
  const locale = useLocale();
  const schema = useMemo(() => {
    const range = ({ min, max }: { min: number; max: number }) => tf("outOfRange", { min: formatCount(min, locale), max: formatCount(max, locale) });
    return raffleSchema({
      required: t("required"),
      priceMin: t("priceMin"),
      priceStep: t("priceStep"),
      maxTicketsRange: t("maxTicketsRange"),
      limitMin: t("limitMin"),
      limitsOrder: t("limitsOrder"),
      holdMinutesRange: range(HOLD_MINUTES),
      closeHoursRange: range(CLOSE_HOURS),
    });
  }, [t, tf, locale]);
  const { control, handleSubmit, setError, formState } = useForm<RaffleDraft>({ resolver: zodResolver(schema), defaultValues: draftOf(raffle) });
  const [title, description, price, status, drawDate, closeHours] = useWatch({ control, name: ["title", "description", "price", "status", "drawDate", "salesCloseHoursBeforeDraw"] });
  // The first prize has its own form (the prizes editor's fields), asked for only on creation.
  const askPrize = !raffle && draws;
  const prizeSchema = useMemo(
    () =>
      prizesSchema({
        required: tf("required"),
        tooShort: tf("tooShort", { min: DRAW_LIMITS.textMin }),
        roundRange: tf("outOfRange", { min: formatCount(1, locale), max: formatCount(DRAW_LIMITS.roundMax, locale) }),
        digitsRange: tf("outOfRange", { min: formatCount(DRAW_LIMITS.digitsMin, locale), max: formatCount(DRAW_LIMITS.digitsMax, locale) }),
        deadlineHoursRange: tf("outOfRange", { min: formatCount(DRAW_LIMITS.deadlineHoursMin, locale), max: formatCount(DRAW_LIMITS.deadlineHoursMax, locale) }),
      }),
    [tf, locale],
  );
  const prizeForm = useForm<PrizesValues>({ resolver: zodResolver(prizeSchema), defaultValues: { prizes: [{ ...emptyPrize(), kind: "beacon" }] } });
  const [prizeDateUnreadable, setPrizeDateUnreadable] = useState(false);
  const salesCloseAt = drawDate ? new Date(Date.parse(endOfDayUtc(drawDate)) - Number(closeHours || 0) * 3_600_000).toISOString() : null;
  // By default the first prize is the raffle itself, drawn by the first drand round after sales
  // close (nobody can know it while numbers are sold): each follows the form until typed.
  useEffect(() => {
    if (!askPrize) return;
    if (!prizeForm.getFieldState("prizes.0.title").isDirty) prizeForm.setValue("prizes.0.title", title);
    if (salesCloseAt && !prizeForm.getFieldState("prizes.0.round").isDirty) prizeForm.setValue("prizes.0.round", String(firstRoundAfterClose(salesCloseAt)));
  }, [askPrize, prizeForm, title, salesCloseAt]);
  const pending = formState.isSubmitting;
  // The draw date's text cannot be read: saving would store the previous day instead.
  const [drawDateUnreadable, setDrawDateUnreadable] = useState(false);
  // SPEC §5: create/update stays disabled until title, description and price are filled.
  const incomplete = !title.trim() || !description.trim() || !price.trim();

  async function submit(draft: RaffleDraft) {
    if (drawDateUnreadable || (askPrize && prizeDateUnreadable)) {
      notify.error(tr("processError"), { description: t(drawDateUnreadable ? "drawDateUnreadable" : "prizeDateUnreadable") });
      return;
    }
    let prizes: PrizesValues["prizes"] = [];
    if (askPrize) {
      const complete = await prizeForm.trigger();
      if (!complete) {
        notify.error(tr("processError"), { description: t("prizeIncomplete") });
        return;
      }
      prizes = prizeForm.getValues("prizes");
    }
    try {
      const input = raffleInput(draft, raffle?.endDate ?? null);
      const saved = await saveRaffle(input, raffle ? { id: raffle.id } : { prizes: prizes.map(prizeInputOf) });
      if (saved.keptUnpublished) notify.warning(tr("keptUnpublished"), { description: saved.keptUnpublished.message });
      else notify.success(raffle ? tr("updated") : tr("created"), { description: draft.title.trim() });
      onSaved();
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, setError, RAFFLE_FIELDS);
      if (askPrize) applyServerFieldErrors(error, prizeForm.setError, prizeServerFields(1));
      notify.error(raffle ? tr("updateError") : tr("createError"), { description: errorMessage(error, tr("processError")) });
    }
  }

  function invalid(errors: FieldErrors<RaffleDraft>) {
    if (drawDateUnreadable) notify.error(tr("processError"), { description: t("drawDateUnreadable") });
    else notify.error(tr("processError"), { description: RAFFLE_FIELDS.map((f) => errors[f]?.message).find(Boolean) });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-xl" closeLabel={tc("close")} data-testid="raffle-dialog">
        <DialogHeader>
          <DialogTitle>{raffle ? t("editTitle") : t("createTitle")}</DialogTitle>
          <DialogDescription>{t("description")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit(submit, invalid)} noValidate className="grid gap-4">
          <FormField control={control} name="title" label={t("title")}>
            {(field) => <Input {...field} maxLength={200} />}
          </FormField>
          <FormField control={control} name="description" label={t("descriptionLabel")}>
            {(field) => <Textarea {...field} rows={3} maxLength={5000} />}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField control={control} name="price" label={t("price")}>
              {(field) => <Input {...field} type="number" inputMode="decimal" step="0.01" min="0.01" />}
            </FormField>
            <FormField control={control} name="maxTickets" label={t("maxTickets")} hint={t("maxTicketsHint")}>
              {(field) => <Input {...field} type="number" inputMode="numeric" min={1} max={MAX_TICKETS_LIMIT} step={1} />}
            </FormField>
            <FormField control={control} name="minTicketsPerPurchase" label={t("minPerPurchase")}>
              {(field) => <Input {...field} type="number" inputMode="numeric" min={1} step={1} />}
            </FormField>
            <FormField control={control} name="maxTicketsPerPurchase" label={t("maxPerPurchase")}>
              {(field) => <Input {...field} type="number" inputMode="numeric" min={1} step={1} />}
            </FormField>
            <p className="text-xs text-muted-foreground sm:col-span-2">{t("limitsHint")}</p>
            <FormField control={control} name="drawDate" label={t("drawDate")} hint={t("drawDateHint")}>
              {({ id, value, onChange, "aria-invalid": invalidDay, "aria-describedby": describedBy }) => (
                <DateField id={id} value={value} onChange={onChange} invalid={Boolean(invalidDay)} onUnreadableChange={setDrawDateUnreadable} describedBy={describedBy} />
              )}
            </FormField>
            <FormField control={control} name="status" label={t("status")}>
              {(field) => (
                <NativeSelect {...field} className="h-11">
                  {RAFFLE_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {t(`statusOptions.${s}`)}
                    </option>
                  ))}
                  {!(RAFFLE_STATUSES as readonly string[]).includes(status) && <option value={status}>{status}</option>}
                </NativeSelect>
              )}
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField control={control} name="holdMinutes" label={t("holdMinutes")} hint={t("holdMinutesHint")}>
              {(field) => <Input {...field} type="number" inputMode="numeric" min={HOLD_MINUTES.min} max={HOLD_MINUTES.max} step={1} />}
            </FormField>
            <FormField control={control} name="salesCloseHoursBeforeDraw" label={t("closeHours")} hint={t("closeHoursHint")}>
              {(field) => <Input {...field} type="number" inputMode="numeric" min={CLOSE_HOURS.min} max={CLOSE_HOURS.max} step={1} />}
            </FormField>
          </div>
          <FormField control={control} name="image" label={t("image")} hint={t("imageHint")}>
            {({ id, name, value, onChange, onBlur, "aria-invalid": invalidImage, "aria-describedby": describedBy }) => (
              <PhotoField id={id} name={name} value={value} onChange={onChange} onBlur={onBlur} invalid={Boolean(invalidImage)} describedBy={describedBy} />
            )}
          </FormField>
          {!raffle && (
            <fieldset className="grid min-w-0 gap-3 rounded-lg border p-3 sm:p-4" data-testid="first-prize">
              <legend className="px-1 font-semibold">{t("firstPrize")}</legend>
              <p className="text-sm text-muted-foreground">{askPrize ? t("firstPrizeIntro") : t("firstPrizeNotAllowed")}</p>
              {askPrize && (
                <PrizeFields control={prizeForm.control} index={0} setValue={prizeForm.setValue} salesCloseAt={salesCloseAt} onDateUnreadable={setPrizeDateUnreadable} titlePlaceholder={title} />
              )}
            </fieldset>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={pending || incomplete} data-testid="save-raffle">
              {pending && <Loader2 aria-hidden className="animate-spin" />}
              {pending ? t("saving") : raffle ? t("update") : t("create")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
