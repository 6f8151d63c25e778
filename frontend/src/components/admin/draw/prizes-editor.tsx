"use client";

import { useCallback, useMemo, useState } from "react";
import { useFieldArray, useForm, useWatch, type Control, type UseFormSetValue } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { ArrowDown, ArrowUp, Loader2, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { MAX_PRIZES, firstRoundAfter, prizesInOrder, quicknetRoundTime } from "@/lib/admin/draw";
import { savePrizes } from "@/lib/api/admin";
import type { AdminDrawView } from "@/lib/api/types";
import { formatCount, formatDateTime } from "@/lib/format";
import { notify } from "@/lib/notify";
import { cn } from "@/lib/utils";
import {
  DRAW_LIMITS,
  PRIZE_SOURCE_KINDS,
  emptyPrize,
  prizeDraftOf,
  prizeInputOf,
  prizeServerFields,
  prizesSchema,
  type PrizeSourceKind,
  type PrizesValues,
} from "@/lib/validations/draw";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { DateField } from "../date-field";
import type { DrawWrite } from "./use-draw-write";

const valuesOf = (view: AdminDrawView): PrizesValues => ({ prizes: prizesInOrder(view).map(prizeDraftOf) });

/**
 * The prizes in their order (the first is drawn first): title, description, optional image and
 * the public result each is drawn from. Saved as a whole list while no purchase exists.
 */
export function PrizesEditor({ raffleId, view, write }: { raffleId: number; view: AdminDrawView; write: DrawWrite }) {
  const t = useTranslations("admin.draw.prizes");
  const tf = useTranslations("fieldErrors");
  const locale = useLocale();
  const schema = useMemo(
    () =>
      prizesSchema({
        required: tf("required"),
        tooShort: tf("tooShort", { min: DRAW_LIMITS.textMin }),
        roundRange: tf("outOfRange", { min: formatCount(1, locale), max: formatCount(DRAW_LIMITS.roundMax, locale) }),
      }),
    [tf, locale],
  );
  const { control, handleSubmit, setError, setValue, reset, formState } = useForm<PrizesValues>({ resolver: zodResolver(schema), defaultValues: valuesOf(view) });
  const rows = useFieldArray({ control, name: "prizes" });
  const pending = formState.isSubmitting;
  // Draw dates whose text cannot be read, by row: saving then would keep the previous day.
  const [unreadable, setUnreadable] = useState<Record<string, boolean>>({});
  const markUnreadable = useCallback((row: string, bad: boolean) => setUnreadable((was) => (Boolean(was[row]) === bad ? was : { ...was, [row]: bad })), []);
  const drafts = useWatch({ control, name: "prizes" });

  async function submit(values: PrizesValues) {
    if (rows.fields.some((row, i) => unreadable[row.id] && values.prizes[i]?.kind === "lottery")) {
      notify.error(t("saveError"), { description: t("dateUnreadable") });
      return;
    }
    const saved = await write(
      () => savePrizes(raffleId, values.prizes.map(prizeInputOf)),
      { done: t("saved"), failed: t("saveError") },
      (error) => applyServerFieldErrors(error, setError, prizeServerFields(values.prizes.length)),
    );
    if (saved) reset(valuesOf(saved));
  }

  const full = rows.fields.length >= MAX_PRIZES;
  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-4" data-testid="prizes-editor">
      {rows.fields.length === 0 && <p className="text-sm text-muted-foreground">{t("empty")}</p>}
      <ol className="grid gap-4">
        {rows.fields.map((row, index) => {
          const position = index + 1;
          const kind = drafts[index]?.kind ?? "lottery";
          return (
            <li key={row.id} className="grid min-w-0 gap-3 rounded-lg border p-3 sm:p-4" data-testid="prize-row">
              <div className="flex items-center justify-between gap-2">
                <h4 className="font-semibold">{t("prize", { position })}</h4>
                <div className="flex gap-1">
                  <Button type="button" variant="ghost" size="icon" className="size-9" disabled={index === 0} onClick={() => rows.move(index, index - 1)} aria-label={t("moveUp", { position })}>
                    <ArrowUp aria-hidden />
                  </Button>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="size-9"
                    disabled={index === rows.fields.length - 1}
                    onClick={() => rows.move(index, index + 1)}
                    aria-label={t("moveDown", { position })}
                  >
                    <ArrowDown aria-hidden />
                  </Button>
                  <Button type="button" variant="ghost" size="icon" className="size-9 text-danger-strong" onClick={() => rows.remove(index)} aria-label={t("remove", { position })}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              </div>
              <FormField control={control} name={`prizes.${index}.title`} label={t("titleLabel")}>
                {(field) => <Input {...field} maxLength={DRAW_LIMITS.titleMax} data-testid={`prize-title-${index}`} />}
              </FormField>
              <FormField control={control} name={`prizes.${index}.description`} label={t("descriptionLabel")}>
                {(field) => <Textarea {...field} rows={2} maxLength={DRAW_LIMITS.descriptionMax} />}
              </FormField>
              <FormField control={control} name={`prizes.${index}.image`} label={t("image")} hint={t("imageHint")}>
                {(field) => <Input {...field} type="url" inputMode="url" placeholder="https://…" maxLength={DRAW_LIMITS.urlMax} />}
              </FormField>
              <SourceKind index={index} kind={kind} setValue={setValue} />
              {kind === "lottery" ? (
                <div className="grid gap-3 sm:grid-cols-2">
                  <FormField control={control} name={`prizes.${index}.lotteryName`} label={t("lotteryName")}>
                    {(field) => <Input {...field} maxLength={DRAW_LIMITS.nameMax} placeholder={t("lotteryNamePlaceholder")} />}
                  </FormField>
                  <FormField control={control} name={`prizes.${index}.drawDate`} label={t("drawDate")}>
                    {({ id, value, onChange, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
                      <DateField id={id} value={value} onChange={onChange} invalid={Boolean(invalid)} describedBy={describedBy} onUnreadableChange={(bad) => markUnreadable(row.id, bad)} />
                    )}
                  </FormField>
                  <FormField control={control} name={`prizes.${index}.sourceUrl`} label={t("sourceUrl")} className="sm:col-span-2">
                    {(field) => <Input {...field} type="url" inputMode="url" placeholder="https://…" maxLength={DRAW_LIMITS.urlMax} />}
                  </FormField>
                </div>
              ) : (
                <BeaconRound control={control} index={index} salesCloseAt={view.salesCloseAt} setValue={setValue} />
              )}
            </li>
          );
        })}
      </ol>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1">
          <Button type="button" variant="outline" className="w-full sm:w-fit" disabled={full || pending} onClick={() => rows.append(emptyPrize())}>
            <Plus aria-hidden />
            {t("add")}
          </Button>
          {full && <p className="text-xs text-muted-foreground">{t("maxReached", { max: MAX_PRIZES })}</p>}
        </div>
        <Button type="submit" disabled={pending || !formState.isDirty} data-testid="save-prizes">
          {pending && <Loader2 aria-hidden className="animate-spin" />}
          {pending ? t("saving") : t("save")}
        </Button>
      </div>
    </form>
  );
}

/** Lottery or drand beacon, as two radio buttons (the verification page's choice, same look). */
function SourceKind({ index, kind, setValue }: { index: number; kind: PrizeSourceKind; setValue: UseFormSetValue<PrizesValues> }) {
  const t = useTranslations("admin.draw.prizes");
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium">{t("source")}</legend>
      <div className="grid grid-cols-2 gap-2" role="radiogroup" aria-label={t("source")} data-testid={`prize-source-kind-${index}`}>
        {PRIZE_SOURCE_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            role="radio"
            aria-checked={kind === k}
            data-kind={k}
            onClick={() => setValue(`prizes.${index}.kind`, k, { shouldDirty: true })}
            className={cn(
              "min-h-10 rounded-md border px-3 py-2 text-sm font-medium outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
              kind === k ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-accent",
            )}
          >
            {t(`kinds.${k}`)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The drand round: when it is published, and the first round after sales close (a round nobody
 * can know while numbers are sold) with a button to take it.
 */
function BeaconRound({ control, index, salesCloseAt, setValue }: { control: Control<PrizesValues>; index: number; salesCloseAt: AdminDrawView["salesCloseAt"]; setValue: UseFormSetValue<PrizesValues> }) {
  const t = useTranslations("admin.draw.prizes");
  const locale = useLocale();
  const round = useWatch({ control, name: `prizes.${index}.round` }).trim();
  const readable = /^\d+$/.test(round) && Number(round) >= 1 && Number(round) <= DRAW_LIMITS.roundMax;
  const suggested = salesCloseAt ? firstRoundAfter(salesCloseAt) : null;
  // A round published before sales close would be known while numbers are still sold.
  const early = readable && suggested !== null && Number(round) < suggested;
  const hint = readable && (
    <>
      {t("roundTime", { date: formatDateTime(quicknetRoundTime(Number(round)), locale) })}
      {early && (
        <strong className="block font-medium text-warning-strong" data-testid={`round-early-${index}`}>
          {t("roundEarly")}
        </strong>
      )}
    </>
  );
  return (
    <div className="grid gap-2">
      <FormField control={control} name={`prizes.${index}.round`} label={t("round")} hint={hint || undefined}>
        {(field) => <Input {...field} type="number" inputMode="numeric" min={1} max={DRAW_LIMITS.roundMax} step={1} />}
      </FormField>
      {suggested !== null && String(suggested) !== round && (
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          {t("roundSuggestion", { round: String(suggested) })}
          <Button type="button" variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => setValue(`prizes.${index}.round`, String(suggested), { shouldDirty: true, shouldValidate: true })}>
            {t("useRound")}
          </Button>
        </p>
      )}
    </div>
  );
}
