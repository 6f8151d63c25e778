"use client";

import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { AlertCircle, BellRing, CheckCircle2, Loader2 } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { subscribeReleaseAlert } from "@/lib/api/client";
import { ApiError } from "@/lib/api/fetcher";
import { releaseAlertSchema, type ReleaseAlertValues } from "@/lib/validations/release-alert";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";

/**
 * "Tell me when numbers come back": an e-mail the API writes to once, when the sweep releases
 * held numbers of this raffle (POST /api/raffles/{id}/release-alerts).
 */
export function ReleaseAlertForm({ raffleId }: { raffleId: number }) {
  const t = useTranslations("releaseAlert");
  const tv = useTranslations("validation");
  const schema = useMemo(() => releaseAlertSchema({ required: tv("required"), email: tv("email") }), [tv]);
  const { control, handleSubmit, setError, formState } = useForm<ReleaseAlertValues>({ resolver: zodResolver(schema), defaultValues: { email: "" } });
  const [subscribed, setSubscribed] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit({ email }: ReleaseAlertValues) {
    setFailure(null);
    try {
      await subscribeReleaseAlert(raffleId, email);
      setSubscribed(email.trim());
    } catch (error) {
      // The server's own words on the field (an address it cannot read).
      if (applyServerFieldErrors(error, setError, ["email"])) return;
      if (error instanceof ApiError && error.status === 429) setFailure(error.serverMessage ?? t("rateLimited"));
      else setFailure(error instanceof ApiError && error.serverMessage ? error.serverMessage : t("error"));
    }
  }

  if (subscribed) {
    return (
      <Alert variant="success" data-testid="release-alert-done">
        <CheckCircle2 aria-hidden />
        <AlertTitle>{t("successTitle")}</AlertTitle>
        <AlertDescription>{t("successText", { email: subscribed })}</AlertDescription>
      </Alert>
    );
  }

  const pending = formState.isSubmitting;
  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-3" data-testid="release-alert-form" aria-label={t("title")}>
      <p className="flex items-center gap-2 font-semibold">
        <BellRing aria-hidden className="size-4" />
        {t("title")}
      </p>
      <FormField control={control} name="email" label={t("email")} hint={t("hint")} className="gap-2">
        {(field) => <Input {...field} type="email" inputMode="email" autoComplete="email" placeholder={t("placeholder")} />}
      </FormField>
      <Button type="submit" disabled={pending} className="h-11 w-full sm:w-auto sm:justify-self-start">
        {pending && <Loader2 aria-hidden className="animate-spin" />}
        {pending ? t("submitting") : t("submit")}
      </Button>
      {failure && (
        <Alert variant="destructive" data-testid="release-alert-error">
          <AlertCircle aria-hidden />
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
    </form>
  );
}
