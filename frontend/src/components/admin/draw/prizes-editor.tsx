"use client";

import { useCallback, useMemo, useState } from "react";
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { ArrowDown, ArrowUp, Loader2, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { MAX_PRIZES, prizesInOrder } from "@/lib/admin/draw";
import { savePrizes } from "@/lib/api/admin";
import type { AdminDrawView } from "@/lib/api/types";
import { formatCount } from "@/lib/format";
import { notify } from "@/lib/notify";
import {
  DEFAULT_RULE,
  DRAW_LIMITS,
  emptyPrize,
  prizeDraftOf,
  prizeInputOf,
  prizeServerFields,
  prizesSchema,
  type PrizesValues,
} from "@/lib/validations/draw";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { PrizeFields } from "./prize-fields";
import { isOfferedRule, RuleField } from "./rule-field";
import type { DrawWrite } from "./use-draw-write";

const valuesOf = (view: AdminDrawView): PrizesValues => ({ rule: view.rule || DEFAULT_RULE, prizes: prizesInOrder(view).map(prizeDraftOf) });

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
        digitsRange: tf("outOfRange", { min: formatCount(DRAW_LIMITS.digitsMin, locale), max: formatCount(DRAW_LIMITS.digitsMax, locale) }),
        deadlineHoursRange: tf("outOfRange", { min: formatCount(DRAW_LIMITS.deadlineHoursMin, locale), max: formatCount(DRAW_LIMITS.deadlineHoursMax, locale) }),
      }),
    [tf, locale],
  );
  const { control, handleSubmit, setError, setValue, reset, formState } = useForm<PrizesValues>({ resolver: zodResolver(schema), defaultValues: valuesOf(view) });
  const rows = useFieldArray({ control, name: "prizes" });
  const pending = formState.isSubmitting;
  // Draw dates whose text cannot be read, by row: saving then would keep the previous day.
  const [unreadable, setUnreadable] = useState<Record<string, boolean>>({});
  const markUnreadable = useCallback((row: string, bad: boolean) => setUnreadable((was) => (Boolean(was[row]) === bad ? was : { ...was, [row]: bad })), []);

  async function submit(values: PrizesValues) {
    if (rows.fields.some((row, i) => unreadable[row.id] && values.prizes[i]?.kind === "lottery")) {
      notify.error(t("saveError"), { description: t("dateUnreadable") });
      return;
    }
    const saved = await write(
      () => savePrizes(raffleId, values.prizes.map(prizeInputOf), isOfferedRule(values.rule) ? values.rule : null),
      { done: t("saved"), failed: t("saveError") },
      (error) => applyServerFieldErrors(error, setError, prizeServerFields(values.prizes.length)),
    );
    if (saved) reset(valuesOf(saved));
  }

  const full = rows.fields.length >= MAX_PRIZES;
  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-4" data-testid="prizes-editor">
      <Controller control={control} name="rule" render={({ field }) => <RuleField value={field.value ?? DEFAULT_RULE} onChange={field.onChange} disabled={view.rulesLocked} />} />
      {rows.fields.length === 0 && <p className="text-sm text-muted-foreground">{t("empty")}</p>}
      <ol className="grid gap-4">
        {rows.fields.map((row, index) => {
          const position = index + 1;
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
              <PrizeFields control={control} index={index} setValue={setValue} salesCloseAt={view.salesCloseAt} onDateUnreadable={(bad) => markUnreadable(row.id, bad)} />
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
