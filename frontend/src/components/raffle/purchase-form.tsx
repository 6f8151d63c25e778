"use client";

import { memo, useEffect, useMemo, useState } from "react";
import { useForm, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import { notify as toast } from "@/lib/notify";
import { Loader2, Upload } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import { createPurchase, ticketCount, uploadProof, type TicketChoice } from "@/lib/api/client";
import type { PaymentMethod, PurchaseResponse } from "@/lib/api/types";
import { formatConverted, formatCount, formatRate, formatUsd, padTicket } from "@/lib/format";
import {
  COUNTRIES,
  MAX_REFERENCE_CHARS,
  NO_REFERENCE_POLICY,
  PROOF_ACCEPT,
  checkProofFile,
  purchaseSchema,
  type ReferencePolicy,
  type PurchaseFormValues,
  type ValidationMessages,
} from "@/lib/validations/purchase";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { usdConversionRate } from "@/lib/payment-methods";
import { usePaymentDetailLabels } from "@/lib/use-payment-details";

const VALIDATION_KEYS = [
  "required", "nameMin", "idMin", "email", "phoneMin", "country", "paymentMethod", "acceptTerms",
  "proofRequiredTitle", "proofRequired", "fileTooBigTitle", "fileTooBig", "fileTypeTitle", "fileType",
  "fileHeic", "referenceRequired", "referenceInvalid", "referenceTooLong",
] as const satisfies readonly (keyof ValidationMessages)[];

export function useValidationMessages(): ValidationMessages {
  const t = useTranslations("validation");
  return useMemo(() => Object.fromEntries(VALIDATION_KEYS.map((k) => [k, t(k)])) as unknown as ValidationMessages, [t]);
}

export interface PurchaseFormProps {
  raffleId: number;
  /** The numbers picked, or how many the server draws (quick buy). */
  tickets: TicketChoice;
  width: number;
  /** Total in USD as the server quoted it (decimal string), sent back untouched. */
  total: string;
  discount: string;
  methods: PaymentMethod[];
  asAdmin: boolean;
  /** The purchase exists; `proofProblem` says why its proof did not arrive (null when it did). */
  onPurchased: (receipt: PurchaseResponse, proofProblem: string | null) => void;
  /** Someone else took these numbers meanwhile (409 tickets_taken), with the server's message. */
  onTaken: (numbers: number[], message: string) => void;
  /** The server's price differs (409 total_mismatch): refresh the quote. */
  onPriceChanged: () => void;
  /** Sales closed meanwhile (409 sales_closed): the page shows its closed panel. */
  onSalesClosed?: () => void;
  /**
   * A quick buy asked for more numbers than are free (409 too_few_left): how many are left (null
   * when the answer does not say) and the server's message.
   */
  onTooFewLeft?: (available: number | null, message: string) => void;
}

type FieldName = keyof PurchaseFormValues;
const FIELD_NAMES: readonly FieldName[] = ["customerName", "customerId", "customerEmail", "customerPhone", "customerCountry", "paymentMethod", "paymentReference", "acceptTerms"];

/** What a method asks of the payment reference (none chosen: nothing). */
function referencePolicyOf(method: PaymentMethod | undefined): ReferencePolicy {
  if (!method) return NO_REFERENCE_POLICY;
  return { required: method.referenceRequired === true, minLength: Math.max(0, method.referenceMinLength ?? 0) };
}

/** The purchase form (SPEC §2 "Purchase form and receipt"): create → upload proof → attach. */
export function PurchaseForm(props: PurchaseFormProps) {
  const { raffleId, tickets, width, total, discount, methods, asAdmin } = props;
  const count = ticketCount(tickets);
  const t = useTranslations("purchase");
  const locale = useLocale();
  const messages = useValidationMessages();
  const detail = usePaymentDetailLabels();
  const active = methods.filter((m) => m.active);
  // The reference's rules follow the chosen method: each validation judges the values with the
  // schema of the method they name (the server stays the judge).
  const resolver: Resolver<PurchaseFormValues> = (values, context, options) => {
    const policy = referencePolicyOf(active.find((m) => String(m.id) === values.paymentMethod));
    const schema = purchaseSchema(messages, { requireProof: true, reference: policy, referenceTooShort: t("referenceMin", { min: policy.minLength }) });
    return zodResolver(schema)(values, context, options);
  };

  const form = useForm<PurchaseFormValues>({
    resolver,
    defaultValues: {
      customerName: "",
      customerId: "",
      customerEmail: "",
      customerPhone: "",
      customerCountry: "" as PurchaseFormValues["customerCountry"],
      paymentMethod: "",
      paymentReference: "",
      paymentProof: null,
      acceptTerms: false,
    },
    // Errors appear on submit, then follow typing: an error appearing on blur would push the
    // submit button down between press and release, and the buyer's first click would be lost.
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { handleSubmit, formState, control, setValue, setError, reset, trigger } = form;
  const methodId = useWatch({ control, name: "paymentMethod" });
  const method = active.find((m) => String(m.id) === methodId);
  const rate = usdConversionRate(method);
  const proofFile = useWatch({ control, name: "paymentProof" });
  const { required: referenceRequired, minLength: referenceMin } = referencePolicyOf(method);
  // Once the buyer has submitted, another method's rules judge the typed reference at once.
  // (Set when a submission starts: RHF's own isSubmitted comes after a server's field errors.)
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => {
    if (submitted) void trigger("paymentReference");
  }, [submitted, referenceRequired, referenceMin, trigger]);

  async function onSubmit(values: PurchaseFormValues) {
    setSubmitted(true);
    const file = values.paymentProof ?? null;
    const problem = checkProofFile(file, messages);
    if (problem) {
      setError("paymentProof", { message: `${problem.title} - ${problem.message}` });
      toast.error(problem.title, { description: problem.message });
      return;
    }
    let result: PurchaseResponse;
    try {
      result = await createPurchase(
        raffleId,
        {
          customerName: values.customerName.trim(),
          customerId: values.customerId.trim(),
          customerEmail: values.customerEmail.trim(),
          customerPhone: values.customerPhone.trim(),
          customerCountry: values.customerCountry,
          paymentMethod: values.paymentMethod,
          paymentReference: values.paymentReference?.trim() || undefined,
          tickets,
          totalAmount: total,
          discountApplied: discount,
          acceptTerms: values.acceptTerms,
        },
        asAdmin,
      );
    } catch (error) {
      handleFailure(error);
      return;
    }

    // The proof: a failure does not undo the purchase (SPEC §7), and the receipt says that the
    // proof did not arrive, why, and offers to send it again.
    let proofProblem: string | null = null;
    if (file && result.purchaseToken && !result.testMode) {
      try {
        await uploadProof(file, { purchaseId: result.purchase.id, purchaseToken: result.purchaseToken });
      } catch (error) {
        console.error("payment proof upload failed", error);
        proofProblem = errorMessage(error, t("proofFailedNetwork"));
      }
    } else if (file && !result.testMode) {
      console.error("payment proof not attached: the purchase answer has no purchaseToken");
      proofProblem = t("proofFailedNetwork");
    }

    if (result.testMode) toast.success(t("testSuccess"));
    else if (!proofProblem) toast.success(t("success"), { description: t("successText") });
    reset();
    setSubmitted(false);
    props.onPurchased(result, proofProblem);
  }

  // Submitted with errors: the proof's title and text also come as a toast, as on a bad file.
  function onInvalid(invalid: FieldErrors<PurchaseFormValues>) {
    setSubmitted(true);
    if (invalid.paymentProof && !proofFile) toast.error(messages.proofRequiredTitle, { description: messages.proofRequired });
  }

  function handleFailure(error: unknown) {
    if (error instanceof ApiError && error.body) {
      const body = error.body;
      if (body.code === "tickets_taken" && body.numbers?.length) {
        const list = body.numbers.map((n) => padTicket(n, width)).join(", ");
        const message = body.message || t("takenText", { numbers: list });
        toast.error(t("takenTitle"), { description: message, duration: 10000 });
        props.onTaken(body.numbers, message);
        return;
      }
      if (body.code === "total_mismatch") {
        toast.error(t("error"), { description: t("totalChanged", { total: body.expectedTotal ? formatUsd(body.expectedTotal, locale) : "" }) });
        props.onPriceChanged();
        return;
      }
      if (body.code === "too_few_left") {
        toast.error(t("error"), { description: body.message, duration: 10000 });
        setError("root.ticketNumbers", { type: "server", message: body.message });
        props.onTooFewLeft?.(body.available ?? null, body.message);
        return;
      }
      // Another instance drew at the same moment: nothing was written, the same form can go again.
      if (body.code === "random_draw_contended") {
        toast.error(t("error"), { description: body.message });
        setError("root.ticketNumbers", { type: "server", message: body.message });
        return;
      }
      // The reference already pays for another live purchase with this method: said on the field,
      // in the server's words (the buyer's language).
      if (body.code === "payment_reference_used") {
        setError("paymentReference", { type: "server", message: body.message });
        toast.error(t("error"), { description: body.message, duration: 10000 });
        return;
      }
      if (body.code === "sales_closed") {
        toast.error(t("error"), { description: body.message });
        props.onSalesClosed?.();
        return;
      }
      if (body.code === "validation_failed") {
        applyServerFieldErrors(error, setError, FIELD_NAMES);
        // The numbers (or the quick buy's count) are not a field of this form: the per-person
        // allowance ('Solo puedes comprar N boleto(s) por persona') is said above the button, in
        // the server's words.
        const problem = body.fields?.ticketNumbers ?? body.fields?.randomCount;
        if (problem) {
          setError("root.ticketNumbers", { type: "server", message: problem });
          toast.error(t("error"), { description: problem });
          return;
        }
      }
      toast.error(t("error"), { description: body.message });
      return;
    }
    toast.error(t("error"));
  }

  const buttonAmount = rate
    ? formatConverted(total, rate.rate, rate.toCurrency, locale, true)
    : formatUsd(total, locale);
  const submitting = formState.isSubmitting;

  return (
    <form onSubmit={handleSubmit(onSubmit, onInvalid)} noValidate className="space-y-4" data-testid="purchase-form">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField control={control} name="customerName" id="customerName" label={t("customerName")} className="gap-2 sm:col-span-2">
            {(field) => <Input autoComplete="name" {...field} />}
          </FormField>
          <FormField control={control} name="customerId" id="customerId" label={t("customerId")} className="gap-2">
            {(field) => <Input autoComplete="off" {...field} />}
          </FormField>
          <FormField control={control} name="customerCountry" id="customerCountry" label={t("customerCountry")} className="gap-2">
            {(field) => (
              <NativeSelect autoComplete="country-name" {...field}>
                <option value="">{t("countryPlaceholder")}</option>
                {COUNTRIES.map((c) => (
                  <option key={c} value={c}>{t(`countries.${c}`)}</option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <FormField control={control} name="customerEmail" id="customerEmail" label={t("customerEmail")} className="gap-2">
            {(field) => <Input type="email" inputMode="email" autoComplete="email" {...field} />}
          </FormField>
          <FormField control={control} name="customerPhone" id="customerPhone" label={t("customerPhone")} className="gap-2">
            {(field) => <Input type="tel" inputMode="tel" autoComplete="tel" {...field} />}
          </FormField>
        </div>

        <FormField control={control} name="paymentMethod" id="paymentMethod" label={t("paymentMethod")} className="gap-2">
          {(field) =>
            active.length === 0 ? (
              <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground">{t("noMethods")}</p>
            ) : (
              <NativeSelect {...field}>
                <option value="">{t("methodPlaceholder")}</option>
                {active.map((m) => (
                  <option key={m.id} value={String(m.id)}>{m.name}</option>
                ))}
              </NativeSelect>
            )
          }
        </FormField>

        {method && (
          <div className="space-y-3 rounded-lg border bg-muted/40 p-4 text-sm" data-testid="method-details">
            <p className="font-semibold">{t("methodDetails")}</p>
            {Object.keys(method.details).length > 0 && (
              <dl className="grid gap-2">
                {Object.entries(method.details).map(([key, value]) => (
                  <div key={key} className="flex flex-col sm:flex-row sm:justify-between sm:gap-4">
                    <dt className="text-muted-foreground">{detail.label(key)}</dt>
                    <dd className="break-all font-medium sm:text-right">{detail.value(key, value)}</dd>
                  </div>
                ))}
              </dl>
            )}
            <div className="flex items-baseline justify-between border-t pt-3">
              <span>{t("totalToPay")}</span>
              <span className="text-lg font-bold" data-testid="converted-total">
                {rate ? formatConverted(total, rate.rate, rate.toCurrency, locale) : formatUsd(total, locale)}
              </span>
            </div>
            {rate && (
              <p className="text-xs text-muted-foreground" data-testid="rate-line">
                {t("rate", { from: rate.fromCurrency, rate: formatRate(rate.rate, locale), to: rate.toCurrency })}
              </p>
            )}
          </div>
        )}

        <FormField
          control={control}
          name="paymentReference"
          id="paymentReference"
          className="gap-2"
          label={
            <>
              {t("paymentReference")}{" "}
              <span className="font-normal text-muted-foreground" data-testid="reference-tag">
                ({referenceRequired ? t("referenceRequiredTag") : t("referenceOptionalTag")})
              </span>
            </>
          }
          hint={referenceMin > 0 ? t("referenceMin", { min: referenceMin }) : t("referenceHint")}
        >
          {(field) => (
            <Input
              {...field}
              value={field.value ?? ""}
              type="text"
              inputMode="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={MAX_REFERENCE_CHARS}
              aria-required={referenceRequired || undefined}
              className="font-mono"
            />
          )}
        </FormField>

        <FormField control={control} name="paymentProof" id="paymentProof" label={t("proof")} className="gap-2">
          {({ id, "aria-invalid": invalid, "aria-describedby": describedBy, value: chosen, onChange, ref }) => (
            <>
              <label
                htmlFor={id}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-dashed p-4 text-sm hover:bg-muted/40 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
              >
                <Upload aria-hidden className="size-5 shrink-0 text-muted-foreground" />
                <span className="min-w-0">
                  {/* The hint wraps on a phone; a chosen file's name keeps to one line. */}
                  <span className={chosen ? "block truncate font-medium" : "block font-medium break-words"}>{chosen?.name ?? t("proofHint")}</span>
                </span>
              </label>
              <input
                id={id}
                ref={ref}
                type="file"
                accept={PROOF_ACCEPT}
                className="sr-only"
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => {
                  const file = e.target.files?.[0] ?? null;
                  const problem = file ? checkProofFile(file, messages) : null;
                  if (problem) {
                    e.target.value = "";
                    onChange(null);
                    setError("paymentProof", { message: `${problem.title} - ${problem.message}` });
                    toast.error(problem.title, { description: problem.message });
                    return;
                  }
                  setValue("paymentProof", file, { shouldValidate: true });
                }}
              />
            </>
          )}
        </FormField>

        <FormField
          control={control}
          name="acceptTerms"
          id="acceptTerms"
          orientation="horizontal"
          className="gap-2"
          labelClassName="block font-normal leading-snug"
          label={t.rich("acceptTerms", {
            terms: (chunks) => (
              <Link href="/terminos-y-condiciones" target="_blank" className="font-medium underline underline-offset-2">
                {chunks}
              </Link>
            ),
          })}
        >
          {({ id, value, ref, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
            <Checkbox
              id={id}
              ref={ref}
              checked={value}
              onCheckedChange={(v) => setValue("acceptTerms", v === true, { shouldValidate: true, shouldTouch: true })}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              className="mt-0.5"
            />
          )}
        </FormField>

        {formState.errors.root?.ticketNumbers?.message && (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 p-3 text-sm font-medium text-danger-strong" data-testid="tickets-error">
            {formState.errors.root.ticketNumbers.message}
          </p>
        )}

        <Button type="submit" size="lg" className="h-12 w-full text-base" disabled={submitting || active.length === 0}>
          {submitting ? <Loader2 aria-hidden className="animate-spin" /> : null}
          {submitting ? t("submitting") : asAdmin ? t("submitTest") : t("submit", { count, shown: formatCount(count, locale), amount: buttonAmount })}
        </Button>
    </form>
  );
}

// Memoised for the raffle page: the picker's clicks re-render the page, not the form (its props
// follow the deferred choice and stable callbacks).
export default memo(PurchaseForm);
