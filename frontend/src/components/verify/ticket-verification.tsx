"use client";

import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { AlertCircle, Loader2, Mail, Phone, Search, Hash } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { ApiError } from "@/lib/api/fetcher";
import { verifyTickets } from "@/lib/api/client";
import type { Verification } from "@/lib/api/types";
import { formatDate, formatNumber, formatUsd, padTicket, ticketWidth } from "@/lib/format";
import { cn } from "@/lib/utils";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { lookupSchema, type LookupValues } from "@/lib/validations/lookup";

type LookupKind = "email" | "phone" | "ticket";
type State = { kind: "idle" } | { kind: "success"; result: Verification } | { kind: "error"; message: string };

/** The home's ticket check (SPEC §2 "Ticket verification", §4 states, §8 messages). */
export function TicketVerification() {
  const t = useTranslations("verify");
  const [type, setType] = useState<LookupKind>("email");
  const [state, setState] = useState<State>({ kind: "idle" });
  const schema = useMemo(() => lookupSchema(t("empty")), [t]);
  const { control, handleSubmit, reset, setError, formState } = useForm<LookupValues>({ resolver: zodResolver(schema), defaultValues: { value: "" } });

  async function submit({ value }: LookupValues) {
    if (type === "ticket") return;
    setState({ kind: "idle" });
    try {
      const result = await verifyTickets(type, value);
      setState({ kind: "success", result });
    } catch (error) {
      // The server's own field message (an e-mail it cannot read…) goes under the field.
      if (applyServerFieldErrors(error, setError, { email: "value", phone: "value" })) return;
      let message = t("error");
      if (error instanceof ApiError) {
        if (error.code === "no_tickets_found") message = t("notFound");
        else if (error.code === "no_active_tickets") message = t("noActive");
        else message = error.serverMessage ?? t("error");
      }
      setState({ kind: "error", message });
    }
  }

  const kinds: { kind: LookupKind; label: string; icon: React.ReactNode }[] = [
    { kind: "email", label: t("email"), icon: <Mail aria-hidden /> },
    { kind: "phone", label: t("phone"), icon: <Phone aria-hidden /> },
    { kind: "ticket", label: t("ticket"), icon: <Hash aria-hidden /> },
  ];
  const pending = formState.isSubmitting;

  return (
    <div className="space-y-6">
      <form onSubmit={handleSubmit(submit)} className="space-y-4 rounded-xl border bg-card p-5 shadow-sm sm:p-6" noValidate>
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{t("type")}</legend>
          <div className="grid grid-cols-3 gap-2" role="radiogroup" aria-label={t("type")}>
            {kinds.map((k) => (
              <button
                key={k.kind}
                type="button"
                role="radio"
                aria-checked={type === k.kind}
                onClick={() => {
                  setType(k.kind);
                  reset();
                  setState({ kind: "idle" });
                }}
                className={cn(
                  "flex min-h-11 flex-col items-center justify-center gap-1 rounded-md border px-2 py-2 text-xs font-medium outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:flex-row sm:text-sm [&_svg]:size-4",
                  type === k.kind ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-accent",
                )}
              >
                {k.icon}
                <span className="text-center leading-tight">{k.label}</span>
              </button>
            ))}
          </div>
        </fieldset>
        {type === "ticket" ? (
          <Alert>
            <AlertCircle aria-hidden />
            <AlertDescription>{t("ticketUnavailable")}</AlertDescription>
          </Alert>
        ) : (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <FormField control={control} name="value" id="verify-value" label={type === "email" ? t("emailLabel") : t("phoneLabel")} className="flex-1 gap-2">
              {(field) => (
                <Input
                  {...field}
                  name={type}
                  type={type === "email" ? "email" : "tel"}
                  inputMode={type === "email" ? "email" : "tel"}
                  autoComplete={type === "email" ? "email" : "tel"}
                  placeholder={type === "email" ? t("emailPlaceholder") : t("phonePlaceholder")}
                />
              )}
            </FormField>
            <Button type="submit" size="lg" disabled={pending} className="h-11 sm:w-40">
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Search aria-hidden />}
              {pending ? t("searching") : t("submit")}
            </Button>
          </div>
        )}
        {state.kind === "error" && (
          <Alert variant="destructive" id="verify-error">
            <AlertCircle aria-hidden />
            <AlertDescription>{state.message}</AlertDescription>
          </Alert>
        )}
      </form>
      <div aria-live="polite">
        {state.kind === "success" && <Results result={state.result} />}
      </div>
    </div>
  );
}

function Results({ result }: { result: Verification }) {
  const t = useTranslations("verify");
  const locale = useLocale();
  return (
    <div className="space-y-4" data-testid="verify-results">
      <div>
        <h3 className="text-lg font-semibold">{t("resultsTitle", { name: result.customerName })}</h3>
        <p className="break-all text-sm text-muted-foreground">{t("contact", { email: result.customerEmail, phone: result.customerPhone })}</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-2">
        {result.raffles.map((entry) => {
          const width = ticketWidth(entry.raffle.maxTickets);
          const status = entry.purchase.status as "pending" | "approved" | "rejected" | "expired" | "test";
          return (
            <li key={entry.purchase.reference} className="space-y-3 rounded-xl border bg-card p-5 shadow-sm">
              <div className="flex items-start justify-between gap-3">
                <h4 className="font-semibold leading-snug">{entry.raffle.title}</h4>
                <Badge variant={status === "approved" ? "success" : status === "rejected" ? "destructive" : status === "expired" ? "outline" : "warning"}>
                  {t.has(`purchaseStatus.${status}`) ? t(`purchaseStatus.${status}`) : status}
                </Badge>
              </div>
              <p className="text-sm text-muted-foreground">{entry.raffle.description.slice(0, 100)}</p>
              <dl className="grid grid-cols-2 gap-2 text-sm">
                <div>
                  <dt className="text-muted-foreground">{t("price")}</dt>
                  <dd className="font-medium">{formatUsd(entry.raffle.price, locale)}</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">{t("drawDate")}</dt>
                  <dd className="font-medium">{entry.raffle.drawDate ? formatDate(entry.raffle.drawDate, locale) : "—"}</dd>
                </div>
                <div className="col-span-2">
                  <dt className="text-muted-foreground">{t("numbers", { count: formatNumber(entry.tickets.length, locale) })}</dt>
                  <dd className="break-words font-mono font-medium">{entry.tickets.map((n) => padTicket(n, width)).join(", ")}</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground" data-testid="verify-total-label">{t("total", { status })}</dt>
                  <dd className="font-medium">{formatUsd(entry.purchase.totalAmount, locale)}</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">{t("reference")}</dt>
                  <dd className="font-mono font-medium">{entry.purchase.reference}</dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
