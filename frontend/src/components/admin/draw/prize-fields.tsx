"use client";

import { useWatch, type Control, type UseFormSetValue } from "react-hook-form";
import { useLocale, useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { firstRoundAfterClose, quicknetRoundTime } from "@/lib/admin/draw";
import { formatDateTime } from "@/lib/format";
import { cn } from "@/lib/utils";
import { LOTTERY_TIME_ZONES, zoneCity } from "@/lib/draw/display";
import { DRAW_LIMITS, PRIZE_SOURCE_KINDS, type PrizeSourceKind, type PrizesValues } from "@/lib/validations/draw";
import { DateField } from "../date-field";
import { PhotoField } from "../photo-field";

/**
 * One prize's fields: its title, description and image, and the public result it is drawn
 * from (a lottery's draw or a drand round). Shared by the prizes editor and the new raffle's
 * first prize, so both ask the same questions.
 */
export function PrizeFields({
  control,
  index,
  setValue,
  salesCloseAt,
  onDateUnreadable,
  titlePlaceholder,
}: {
  control: Control<PrizesValues>;
  index: number;
  setValue: UseFormSetValue<PrizesValues>;
  /** When sales close (RFC 3339), for the first drand round nobody can know while they are open. */
  salesCloseAt: string | null | undefined;
  onDateUnreadable: (unreadable: boolean) => void;
  titlePlaceholder?: string;
}) {
  const t = useTranslations("admin.draw.prizes");
  const kind = useWatch({ control, name: `prizes.${index}.kind` }) ?? "lottery";
  return (
    <>
      <FormField control={control} name={`prizes.${index}.title`} label={t("titleLabel")}>
        {(field) => <Input {...field} maxLength={DRAW_LIMITS.titleMax} placeholder={titlePlaceholder} data-testid={`prize-title-${index}`} />}
      </FormField>
      <FormField control={control} name={`prizes.${index}.description`} label={t("descriptionLabel")}>
        {(field) => <Textarea {...field} rows={2} maxLength={DRAW_LIMITS.descriptionMax} />}
      </FormField>
      <FormField control={control} name={`prizes.${index}.image`} label={t("image")} hint={t("imageHint")}>
        {({ id, name, value, onChange, onBlur, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
          <PhotoField id={id} name={name} value={value} onChange={onChange} onBlur={onBlur} invalid={Boolean(invalid)} describedBy={describedBy} maxLength={DRAW_LIMITS.urlMax} />
        )}
      </FormField>
      <SourceKind index={index} kind={kind} setValue={setValue} />
      {kind === "lottery" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField control={control} name={`prizes.${index}.lotteryName`} label={t("lotteryName")}>
            {(field) => <Input {...field} maxLength={DRAW_LIMITS.nameMax} placeholder={t("lotteryNamePlaceholder")} />}
          </FormField>
          <FormField control={control} name={`prizes.${index}.drawDate`} label={t("drawDate")}>
            {({ id, value, onChange, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
              <DateField id={id} value={value} onChange={onChange} invalid={Boolean(invalid)} describedBy={describedBy} onUnreadableChange={onDateUnreadable} />
            )}
          </FormField>
          <FormField control={control} name={`prizes.${index}.drawTime`} label={t("drawTime")} hint={t("drawTimeHint")}>
            {(field) => <Input {...field} type="time" step={60} data-testid={`prize-draw-time-${index}`} />}
          </FormField>
          <FormField control={control} name={`prizes.${index}.timeZone`} label={t("timeZone")}>
            {(field) => (
              <NativeSelect {...field} data-testid={`prize-time-zone-${index}`}>
                {LOTTERY_TIME_ZONES.map((zone) => (
                  <option key={zone} value={zone}>
                    {zoneCity(zone)} ({zone})
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <FormField control={control} name={`prizes.${index}.sourceUrl`} label={t("sourceUrl")} className="sm:col-span-2">
            {(field) => <Input {...field} type="url" inputMode="url" placeholder="https://…" maxLength={DRAW_LIMITS.urlMax} />}
          </FormField>
          <FormField control={control} name={`prizes.${index}.deadlineHours`} label={t("deadlineHours")} hint={t("deadlineHoursHint")}>
            {(field) => (
              <Input
                {...field}
                type="number"
                inputMode="numeric"
                min={DRAW_LIMITS.deadlineHoursMin}
                max={DRAW_LIMITS.deadlineHoursMax}
                step={1}
                placeholder="24"
                data-testid={`prize-deadline-hours-${index}`}
              />
            )}
          </FormField>
          <FormField control={control} name={`prizes.${index}.digits`} label={t("digits")} hint={t("digitsHint")}>
            {(field) => (
              <Input {...field} type="number" inputMode="numeric" min={DRAW_LIMITS.digitsMin} max={DRAW_LIMITS.digitsMax} step={1} data-testid={`prize-digits-${index}`} />
            )}
          </FormField>
        </div>
      ) : (
        <BeaconRound control={control} index={index} salesCloseAt={salesCloseAt ?? null} setValue={setValue} />
      )}
    </>
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
function BeaconRound({ control, index, salesCloseAt, setValue }: { control: Control<PrizesValues>; index: number; salesCloseAt: string | null; setValue: UseFormSetValue<PrizesValues> }) {
  const t = useTranslations("admin.draw.prizes");
  const locale = useLocale();
  const round = useWatch({ control, name: `prizes.${index}.round` }).trim();
  const readable = /^\d+$/.test(round) && Number(round) >= 1 && Number(round) <= DRAW_LIMITS.roundMax;
  const suggested = salesCloseAt ? firstRoundAfterClose(salesCloseAt) : null;
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
