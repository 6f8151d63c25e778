"use client";

import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { Dices, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { previewPrizeResult, recordPrizeResult } from "@/lib/api/admin";
import { ApiError } from "@/lib/api/fetcher";
import type { AdminPrize, PreviewedPrize } from "@/lib/api/types";
import { notify } from "@/lib/notify";
import {
  DRAW_LIMITS,
  beaconResultInput,
  beaconResultSchema,
  lotteryResultInput,
  lotteryResultSchema,
  type BeaconResultValues,
  type LotteryResultValues,
} from "@/lib/validations/draw";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { DateField } from "../date-field";
import { ResultConfirm } from "./result-confirm";
import type { DrawWrite } from "./use-draw-write";

interface ResultFormProps {
  raffleId: number;
  prize: AdminPrize;
  digitsUsed: number;
  /** How the raffle's numbers are written (zero-padded to its width). */
  maxTickets: number;
  /** The prize's fallback drand round, when that is what is recorded now (the server knows which round). */
  fallbackRound?: number;
  /** Not yet: the ledger is not frozen (the card says so). */
  disabled: boolean;
  write: DrawWrite;
}

/** Recording a prize's result, in the form its source needs. */
export function ResultForm(props: ResultFormProps) {
  return props.prize.source.kind === "lottery" && props.fallbackRound === undefined ? <LotteryResultForm {...props} /> : <BeaconResultForm {...props} />;
}

function RecordButton({ position, pending, pendingText, disabled }: { position: number; pending: boolean; pendingText?: string; disabled: boolean }) {
  const t = useTranslations("admin.draw.results");
  return (
    <Button type="submit" className="w-full sm:w-fit" disabled={disabled || pending} data-testid={`record-result-${position}`}>
      {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Dices aria-hidden />}
      {pending ? (pendingText ?? t("recording")) : t("record")}
    </Button>
  );
}

/**
 * A lottery's result as it published it. The day and link start from the prize's source (the
 * lottery's draw day and results page), which is usually where the result appears. Recording
 * takes two steps: the server first says what the result would decide (the preview, which stores
 * nothing: each prize it settles, possibly later ones too, with its winning number and winner),
 * and only once that is confirmed is the result recorded, for good.
 */
function LotteryResultForm({ raffleId, prize, digitsUsed, maxTickets, disabled, write }: ResultFormProps) {
  const t = useTranslations("admin.draw.results");
  const tf = useTranslations("fieldErrors");
  const schema = useMemo(() => lotteryResultSchema({ required: tf("required"), notANumber: tf("notANumber"), tooLong: tf("tooLong", { max: DRAW_LIMITS.resultMax }) }), [tf]);
  const source = prize.source.kind === "lottery" ? prize.source : null;
  const { control, handleSubmit, setError, formState } = useForm<LotteryResultValues>({
    resolver: zodResolver(schema),
    defaultValues: { result: "", publishedOn: source?.drawDate ?? "", officialUrl: source?.sourceUrl ?? "" },
  });
  // The publication day's text cannot be read: recording would send the previous day.
  const [dayUnreadable, setDayUnreadable] = useState(false);
  // What the result shown for confirmation would decide, and the result as it will be recorded.
  const [preview, setPreview] = useState<{ input: ReturnType<typeof lotteryResultInput>; prizes: PreviewedPrize[] } | null>(null);
  const onFieldErrors = (error: unknown) => applyServerFieldErrors(error, setError, ["result", "publishedOn", "officialUrl"]);

  async function submit(values: LotteryResultValues) {
    if (dayUnreadable) {
      notify.error(t("recordError"), { description: t("dateUnreadable") });
      return;
    }
    const input = lotteryResultInput(values);
    const { result, publishedOn, officialUrl } = input;
    const answer = await write.check(() => previewPrizeResult(raffleId, prize.id, { result, publishedOn, officialUrl }), t("recordError"), onFieldErrors);
    if (answer) setPreview({ input, prizes: answer.prizes });
  }

  return (
    <>
      <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-3" data-testid={`result-form-${prize.position}`}>
        <fieldset disabled={disabled} className="grid gap-3 sm:grid-cols-2">
          <FormField control={control} name="result" label={t("result")} hint={t("resultHint", { digits: digitsUsed })}>
            {(field) => <Input {...field} autoComplete="off" maxLength={DRAW_LIMITS.resultMax} className="font-mono" data-testid={`result-input-${prize.position}`} />}
          </FormField>
          <FormField control={control} name="publishedOn" label={t("publishedOn")}>
            {({ id, value, onChange, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
              <DateField id={id} value={value} onChange={onChange} invalid={Boolean(invalid)} describedBy={describedBy} onUnreadableChange={setDayUnreadable} />
            )}
          </FormField>
          <FormField control={control} name="officialUrl" label={t("officialUrl")} className="sm:col-span-2">
            {(field) => <Input {...field} type="url" inputMode="url" placeholder="https://…" maxLength={DRAW_LIMITS.urlMax} />}
          </FormField>
        </fieldset>
        <RecordButton position={prize.position} pending={formState.isSubmitting} pendingText={t("previewing")} disabled={disabled} />
      </form>
      {preview && (
        <ResultConfirm
          result={preview.input.result ?? ""}
          publishedOn={preview.input.publishedOn ?? ""}
          prizes={preview.prizes}
          maxTickets={maxTickets}
          onConfirm={() => write(() => recordPrizeResult(raffleId, prize.id, preview.input), { done: t("recorded"), failed: t("recordError") }, onFieldErrors)}
          onClose={() => setPreview(null)}
        />
      )}
    </>
  );
}

/**
 * A drand round: its signature may be pasted (checked by the server against drand's key), or left
 * for the server to fetch. A round not published yet (409 `beacon_round_not_yet`) or drand out of
 * reach (503 `beacon_unavailable`) is told by the toast in the server's words.
 */
function BeaconResultForm({ raffleId, prize, fallbackRound, disabled, write }: ResultFormProps) {
  const t = useTranslations("admin.draw.results");
  const { control, handleSubmit, setError, formState } = useForm<BeaconResultValues>({ resolver: zodResolver(beaconResultSchema), defaultValues: { signature: "" } });

  async function submit(values: BeaconResultValues) {
    await write(
      () => recordPrizeResult(raffleId, prize.id, beaconResultInput(values)),
      { done: t("recorded"), failed: t("recordError") },
      (error) => {
        if (applyServerFieldErrors(error, setError, ["signature"])) return;
        // A signature that is not drand's comes without `fields`; its message still belongs on the field.
        if (error instanceof ApiError && error.code === "beacon_signature_invalid" && error.serverMessage) {
          setError("signature", { type: "server", message: error.serverMessage });
        }
      },
    );
  }

  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-3" data-testid={`result-form-${prize.position}`}>
      <fieldset disabled={disabled} className="grid gap-3">
        <FormField
          control={control}
          name="signature"
          label={fallbackRound === undefined ? t("signature") : t("fallbackSignature", { round: String(fallbackRound) })}
          hint={t("signatureHint")}
        >
          {(field) => <Textarea {...field} rows={2} spellCheck={false} autoComplete="off" className="break-all font-mono text-xs" data-testid={`result-input-${prize.position}`} />}
        </FormField>
      </fieldset>
      <RecordButton position={prize.position} pending={formState.isSubmitting} disabled={disabled} />
    </form>
  );
}
