"use client";

import { useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { Copy, Eraser, Info, Loader2, RotateCw, Save, Send, TriangleAlert, Wand2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { retryMail, saveEmailSettings, sendTestEmail } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { EmailSettings, OutboxMail } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";
import { mailEnvLines } from "@/lib/admin/env-vars";
import { notify } from "@/lib/notify";
import { useEmailSettings } from "@/lib/swr/use-email-settings";
import { useMailOutbox } from "@/lib/swr/use-mail-outbox";
import { emailSettingsSchema, testEmailSchema, type EmailSettingsValues, type TestEmailValues } from "@/lib/validations/email-settings";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { FormField } from "@/components/ui/form-field";

type Draft = EmailSettingsValues;

const EMPTY: Draft = { emailHost: "", emailPort: "587", emailUser: "", emailPass: "", fromEmail: "", clearPassword: false };
const SETTINGS_FIELDS = ["emailHost", "emailPort", "emailUser", "emailPass", "fromEmail"] as const;

function draftOf(s: EmailSettings | undefined): Draft {
  if (!s) return EMPTY;
  return { emailHost: s.emailHost, emailPort: String(s.emailPort || 587), emailUser: s.emailUser, emailPass: "", fromEmail: s.fromEmail, clearPassword: false };
}

/** Whether the form differs from what is saved (the test e-mail uses the saved settings). */
function isDirty(draft: Draft, saved: EmailSettings | undefined): boolean {
  const base = draftOf(saved);
  return (Object.keys(base) as (keyof Draft)[]).some((k) => draft[k] !== base[k]);
}

/** The e-mail tab (SPEC §2; the settings permission, owners): SMTP settings saved through the API, a test, env lines, failed deliveries. */
export function EmailTab() {
  const t = useTranslations("admin.email");
  const { data: settings, mutate } = useEmailSettings(true);
  // `values`: the saved settings replace the form whenever they change (loaded, saved).
  const saved = useMemo(() => draftOf(settings), [settings]);
  const form = useForm<Draft>({ resolver: zodResolver(emailSettingsSchema), values: saved });
  const { control, handleSubmit, setError, setValue, reset, formState } = form;
  const draft = useWatch({ control }) as Draft;
  const testForm = useForm<TestEmailValues>({ resolver: zodResolver(testEmailSchema), defaultValues: { to: "" } });
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const saving = formState.isSubmitting;
  const testing = testForm.formState.isSubmitting;

  const keepsPassword = Boolean(settings?.hasPassword) && !draft.clearPassword;
  const envLines = mailEnvLines({ ...draft, hasPassword: Boolean(draft.emailPass) || keepsPassword });
  const dirty = isDirty(draft, settings);

  async function save(values: Draft) {
    try {
      const stored = await saveEmailSettings({
        emailHost: values.emailHost.trim(),
        emailPort: Number(values.emailPort) || 587,
        emailUser: values.emailUser.trim(),
        emailPass: values.emailPass,
        clearPassword: values.clearPassword,
        fromEmail: values.fromEmail.trim(),
      });
      await mutate(stored, { revalidate: false });
      // Also when only the write-only password changed: `values` would then not differ.
      reset(draftOf(stored));
      notify.success(t("saved"));
    } catch (error) {
      applyServerFieldErrors(error, setError, SETTINGS_FIELDS);
      notify.error(t("saveError"), { description: errorMessage(error, t("saveError")) });
    }
  }

  async function test({ to }: TestEmailValues) {
    setTestResult(null);
    try {
      const result = await sendTestEmail(to);
      const text = result.deliveredVia === "smtp" ? t("testSmtp", { to: result.to }) : t("testOutbox", { to: result.to });
      setTestResult({ ok: true, text });
      notify.success(text);
    } catch (error) {
      applyServerFieldErrors(error, testForm.setError, { to: "to" });
      const text = errorMessage(error, t("testFailed"));
      setTestResult({ ok: false, text });
      notify.error(t("testFailed"), { description: text });
    }
  }

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="email-tab">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-xl">{t("title")}</h2>
          </CardTitle>
          <CardDescription className="flex items-start gap-2 rounded-md bg-muted p-3 text-foreground/80">
            <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
            {t("info")}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={handleSubmit(save)} className="grid gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
              <FormField control={control} name="emailHost" label={t("host")}>
                {(field) => <Input {...field} placeholder="smtp.gmail.com" spellCheck={false} />}
              </FormField>
              <FormField control={control} name="emailPort" label={t("port")}>
                {(field) => <Input {...field} type="number" inputMode="numeric" min={1} max={65535} />}
              </FormField>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField control={control} name="emailUser" label={t("user")}>
                {(field) => <Input {...field} autoComplete="off" spellCheck={false} />}
              </FormField>
              <FormField control={control} name="emailPass" label={t("pass")}>
                {(field) => (
                  <>
                    <Input {...field} type="password" autoComplete="new-password" aria-describedby={field["aria-describedby"] ?? `${field.id}-pass-hint`} />
                    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <p id={`${field.id}-pass-hint`} className="text-xs text-muted-foreground" data-testid="pass-hint">
                        {!settings?.hasPassword ? t("passNone") : draft.clearPassword ? (draft.emailPass ? t("passReplaced") : t("passWillClear")) : t("passKept")}
                      </p>
                      {settings?.hasPassword && (
                        <Button
                          type="button"
                          variant="link"
                          size="sm"
                          className="h-auto p-0 text-xs underline"
                          onClick={() => setValue("clearPassword", !draft.clearPassword, { shouldDirty: true })}
                          data-testid="toggle-clear-password"
                        >
                          {draft.clearPassword ? t("passKeep") : t("passClear")}
                        </Button>
                      )}
                    </div>
                  </>
                )}
              </FormField>
            </div>
            <FormField control={control} name="fromEmail" label={t("from")}>
              {(field) => (
                <>
                  <Input
                    {...field}
                    type="email"
                    placeholder="rifas@example.com"
                    aria-describedby={[field["aria-describedby"], settings?.senderIsPlaceholder ? `${field.id}-warning` : undefined].filter(Boolean).join(" ") || undefined}
                  />
                  {settings?.senderIsPlaceholder && (
                    <p id={`${field.id}-warning`} role="alert" data-testid="sender-placeholder-warning" className="flex items-start gap-2 rounded-md bg-danger/10 p-2 text-xs font-medium text-danger-strong">
                      <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
                      {t("fromPlaceholder", { from: settings.fromEmail || "rifa@localhost" })}
                    </p>
                  )}
                </>
              )}
            </FormField>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => reset({ ...EMPTY, clearPassword: Boolean(settings?.hasPassword) }, { keepDefaultValues: true })} disabled={saving}>
                <Eraser aria-hidden />
                {t("clear")}
              </Button>
              <Button type="submit" disabled={saving} data-testid="save-email">
                {saving ? <Loader2 aria-hidden className="animate-spin" /> : <Save aria-hidden />}
                {saving ? t("saving") : t("save")}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("testTitle")}</CardTitle>
            <CardDescription>{t("testUsesSaved")}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            {dirty && (
              <p role="note" className="rounded-md border border-warning bg-warning/10 p-2 text-sm" data-testid="test-unsaved">
                {t("testUnsaved")}
              </p>
            )}
            <form onSubmit={testForm.handleSubmit(test)} noValidate className="grid gap-3">
              <FormField control={testForm.control} name="to" label={t("testTo")}>
                {(field) => <Input {...field} type="email" placeholder={t("testToPlaceholder")} />}
              </FormField>
              <Button type="submit" variant="outline" className="w-fit" disabled={testing} data-testid="test-email">
                {testing ? <Loader2 aria-hidden className="animate-spin" /> : <Send aria-hidden />}
                {testing ? t("testing") : t("test")}
              </Button>
            </form>
            {testResult && (
              <p role="status" data-testid="test-result" className={testResult.ok ? "text-sm text-success-strong" : "break-words text-sm font-medium text-danger-strong"}>
                {testResult.text}
              </p>
            )}
          </CardContent>
        </Card>
        <EnvVarsCard lines={envLines} />
      </div>

      <OutboxList status="failed" />
      <OutboxList status="withheld" />
    </div>
  );
}

function EnvVarsCard({ lines }: { lines: string[] }) {
  const t = useTranslations("admin.email");
  const text = lines.join("\n");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("envTitle")}</CardTitle>
        <CardDescription>{t("envText")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed" data-testid="env-vars">
          {text}
        </pre>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => notify.success(t("copied")), () => undefined);
            }}
          >
            <Copy aria-hidden />
            {t("copy")}
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => notify.info(t("generated"), { description: t("generatedText") })}>
            <Wand2 aria-hidden />
            {t("generate")}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * Buyers' e-mails the outbox gave up on, or withheld because their address had received its
 * share of confirmations (RIFA_MAIL_PER_RECIPIENT_HOUR/_DAY), with a retry that sends them
 * (GET/POST /api/admin/mail-outbox).
 */
export function OutboxList({ status }: { status: "failed" | "withheld" }) {
  const t = useTranslations("admin.email");
  const locale = useLocale();
  const { data: mails, mutate } = useMailOutbox(status, true);
  const [retrying, setRetrying] = useState<number | null>(null);
  const kind = (k: string) => (t.has(`kinds.${k as "received"}`) ? t(`kinds.${k as "received"}`) : k);
  // A buyer's message is about a purchase; a release alert, about a raffle.
  const about = (m: OutboxMail) => (m.purchaseId != null ? `#${m.purchaseId}` : m.raffleId != null ? t("outboxRaffle", { id: m.raffleId }) : "—");
  const withheld = status === "withheld";
  const reason = (m: OutboxMail) =>
    m.withheldReason === "hourly_cap" || m.withheldReason === "daily_cap" ? t(`withheldReasons.${m.withheldReason as "hourly_cap"}`) : m.withheldReason;

  async function retry(idToRetry: number) {
    setRetrying(idToRetry);
    try {
      await retryMail(idToRetry);
      notify.success(t("outboxRetried"));
      await mutate();
    } catch (error) {
      notify.error(t("outboxRetryError"), { description: errorMessage(error, t("outboxRetryError")) });
    } finally {
      setRetrying(null);
    }
  }

  return (
    <Card className="gap-0" data-testid={withheld ? "withheld-mails" : "failed-deliveries"}>
      <CardHeader className="pb-4">
        <CardTitle className="flex items-center gap-2">
          {t(withheld ? "withheldTitle" : "outboxTitle")}
          {mails && mails.length > 0 && <Badge variant={withheld ? "secondary" : "destructive"}>{mails.length}</Badge>}
        </CardTitle>
        <CardDescription>{t(withheld ? "withheldText" : "outboxText")}</CardDescription>
      </CardHeader>
      {!mails?.length ? (
        <CardContent>
          <p className="text-sm text-muted-foreground">{t(withheld ? "withheldEmpty" : "outboxEmpty")}</p>
        </CardContent>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t("outboxRecipient")}</TableHead>
              <TableHead>{t("outboxKind")}</TableHead>
              <TableHead>{t("outboxPurchase")}</TableHead>
              {!withheld && <TableHead className="text-right">{t("outboxAttempts")}</TableHead>}
              <TableHead>{t(withheld ? "withheldReason" : "outboxError")}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {mails.map((m) => (
              <TableRow key={m.id}>
                <TableCell className="max-w-48 truncate">{m.recipient}</TableCell>
                <TableCell className="whitespace-nowrap">{kind(m.kind)}</TableCell>
                <TableCell className="whitespace-nowrap tabular-nums">{about(m)}</TableCell>
                {!withheld && <TableCell className="text-right tabular-nums">{m.attempts}</TableCell>}
                <TableCell className="min-w-48 max-w-96 text-xs text-muted-foreground">
                  {withheld ? reason(m) : m.lastError}
                  <span className="block">{formatDateTime(m.createdAt, locale, "short")}</span>
                </TableCell>
                <TableCell>
                  <Button type="button" variant="outline" size="sm" onClick={() => retry(m.id)} disabled={retrying === m.id}>
                    {retrying === m.id ? <Loader2 aria-hidden className="animate-spin" /> : <RotateCw aria-hidden />}
                    {t(withheld ? "withheldSend" : "outboxRetry")}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
