"use client";

import { useMemo } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { Loader2, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/native-select";
import { savePaymentMethod } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { PaymentMethod } from "@/lib/api/types";
import {
  BANK_ACCOUNT_TYPES,
  CRYPTO_NETWORKS,
  FORM_TYPES,
  canRemoveField,
  detailsFor,
  draftFromDetails,
  emptyDraft,
  formTypeOf,
  isFormType,
  type FormType,
} from "@/lib/admin/payment-details";
import { formatRate } from "@/lib/format";
import { notify } from "@/lib/notify";
import { useExchangeRates } from "@/lib/swr/use-exchange-rates";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { MAX_REFERENCE_MIN_LENGTH, paymentMethodSchema, referenceMinOf, type PaymentMethodValues } from "@/lib/validations/payment-method";
import { useDetailsText, useTypeLabel } from "./payment-methods-tab";

/** Create or edit a payment method; the detail fields follow the type (SPEC §3, §5). */
export function PaymentMethodDialog({ method, onClose, onSaved }: { method: PaymentMethod | null; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("admin.methodForm");
  const tm = useTranslations("admin.methods");
  const tc = useTranslations("admin.common");
  const tf = useTranslations("fieldErrors");
  const locale = useLocale();
  const typeLabel = useTypeLabel();
  const detailsLine = useDetailsText();
  const { data: rates } = useExchangeRates();
  const schema = useMemo(() => paymentMethodSchema(tf("required"), tf("outOfRange", { min: 0, max: MAX_REFERENCE_MIN_LENGTH })), [tf]);
  const { control, handleSubmit, setError, setValue, formState } = useForm<PaymentMethodValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: method?.name ?? "",
      // A stored type the form does not offer (zelle, mobile_payment…) is kept, its details
      // edited as free fields.
      type: method?.type ?? "digital",
      exchangeRateId: method?.exchangeRateId ? String(method.exchangeRateId) : "",
      referenceRequired: method?.referenceRequired ?? false,
      referenceMinLength: String(method?.referenceMinLength ?? 0),
      details: method ? draftFromDetails(method.type, method.details) : emptyDraft(),
    },
  });
  const rows = useFieldArray({ control, name: "details.digital" });
  const [name, type, details, referenceRequired] = useWatch({ control, name: ["name", "type", "details", "referenceRequired"] });
  const fields: FormType = formTypeOf(type);
  const typeOptions: string[] = method && !isFormType(method.type) ? [...FORM_TYPES, method.type] : [...FORM_TYPES];
  const pending = formState.isSubmitting;

  async function submit(values: PaymentMethodValues) {
    try {
      await savePaymentMethod(
        {
          name: values.name.trim(),
          type: values.type,
          details: detailsFor(formTypeOf(values.type), values.details),
          exchangeRateId: values.exchangeRateId ? Number(values.exchangeRateId) : null,
          active: true,
          referenceRequired: values.referenceRequired,
          // A minimum also applies to a reference typed by choice: none unless one is required.
          referenceMinLength: values.referenceRequired ? (referenceMinOf(values.referenceMinLength) ?? 0) : 0,
        },
        method?.id,
      );
      notify.success(method ? tm("updated") : tm("created"), { description: values.name.trim() });
      onSaved();
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, setError, {
        name: "name",
        type: "type",
        exchangeRateId: "exchangeRateId",
        referenceRequired: "referenceRequired",
        referenceMinLength: "referenceMinLength",
      });
      notify.error(method ? tm("updateError") : tm("createError"), { description: errorMessage(error, method ? tm("updateError") : tm("createError")) });
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-xl" closeLabel={tc("close")} data-testid="method-dialog">
        <DialogHeader>
          <DialogTitle>{method ? t("editTitle") : t("createTitle")}</DialogTitle>
          <DialogDescription>{t("activeNote")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-4">
          <FormField control={control} name="name" label={t("name")}>
            {(field) => <Input {...field} placeholder={t("namePlaceholder")} maxLength={100} />}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField control={control} name="type" label={t("type")}>
              {(field) => (
                <NativeSelect {...field} className="h-11">
                  {typeOptions.map((ft) => (
                    <option key={ft} value={ft}>
                      {typeLabel(ft)}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            <FormField control={control} name="exchangeRateId" label={t("exchangeRate")}>
              {(field) => (
                <NativeSelect {...field} className="h-11">
                  <option value="">{t("noRate")}</option>
                  {(rates ?? []).map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.fromCurrency} → {r.toCurrency} (1 : {formatRate(r.rate, locale)})
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
          </div>
          <div className="grid items-start gap-4 rounded-md border p-3 sm:grid-cols-[minmax(0,1fr)_12rem]" data-testid="reference-policy">
            <FormField
              control={control}
              name="referenceRequired"
              orientation="horizontal"
              labelClassName="block leading-snug"
              label={t("referenceRequired")}
              hint={t("referenceRequiredHint")}
            >
              {({ id, value, ref, "aria-invalid": invalid, "aria-describedby": describedBy }) => (
                <Checkbox
                  id={id}
                  ref={ref}
                  checked={value}
                  onCheckedChange={(v) => setValue("referenceRequired", v === true, { shouldDirty: true, shouldValidate: formState.isSubmitted })}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                />
              )}
            </FormField>
            <FormField control={control} name="referenceMinLength" label={t("referenceMinLength")} hint={t("referenceMinHint")} labelClassName="leading-snug">
              {(field) => (
                <Input
                  {...field}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_REFERENCE_MIN_LENGTH}
                  step={1}
                  disabled={!referenceRequired}
                  data-testid="reference-min-length"
                />
              )}
            </FormField>
          </div>
          <fieldset className="grid gap-3 rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">{t("details")}</legend>
            {fields === "digital" && (
              <>
                {rows.fields.map((row, index) => (
                  <div key={row.id} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2" data-testid="detail-row">
                    <FormField control={control} name={`details.digital.${index}.key`} label={t("key")} labelClassName="text-xs" className="gap-1">
                      {(field) => <Input {...field} className="h-10 text-sm" placeholder={t("keyPlaceholder")} />}
                    </FormField>
                    <FormField control={control} name={`details.digital.${index}.value`} label={t("value")} labelClassName="text-xs" className="gap-1">
                      {(field) => <Input {...field} className="h-10 text-sm" placeholder={t("valuePlaceholder")} />}
                    </FormField>
                    {canRemoveField(details) ? (
                      <Button type="button" variant="ghost" size="icon" className="size-10 text-danger-strong" aria-label={t("removeField", { n: index + 1 })} onClick={() => rows.remove(index)}>
                        <Trash2 aria-hidden />
                      </Button>
                    ) : (
                      <span className="size-10" />
                    )}
                  </div>
                ))}
                <Button type="button" variant="outline" size="sm" className="w-fit" onClick={() => rows.append({ key: "", value: "" })}>
                  <Plus aria-hidden />
                  {t("addField")}
                </Button>
              </>
            )}
            {fields === "bank" && (
              <div className="grid gap-3 sm:grid-cols-2">
                <FormField control={control} name="details.bank.bankName" label={t("bankName")}>
                  {(field) => <Input {...field} />}
                </FormField>
                <FormField control={control} name="details.bank.accountType" label={t("accountType")}>
                  {(field) => (
                    <NativeSelect {...field} className="h-11">
                      {BANK_ACCOUNT_TYPES.map((a) => (
                        <option key={a} value={a}>
                          {t(`accountTypes.${a}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
                <FormField control={control} name="details.bank.accountNumber" label={t("accountNumber")} className="sm:col-span-2">
                  {(field) => <Input {...field} inputMode="numeric" />}
                </FormField>
              </div>
            )}
            {fields === "crypto" && (
              <div className="grid gap-3">
                <FormField control={control} name="details.crypto.walletAddress" label={t("walletAddress")}>
                  {(field) => <Input {...field} className="font-mono text-sm" spellCheck={false} />}
                </FormField>
                <FormField control={control} name="details.crypto.network" label={t("network")}>
                  {(field) => (
                    <NativeSelect {...field} className="h-11">
                      {CRYPTO_NETWORKS.map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
              </div>
            )}
            {fields !== "digital" && details.extra.length > 0 && (
              <p className="text-xs text-muted-foreground" data-testid="kept-details">
                {t("keptDetails", { details: detailsLine(Object.fromEntries(details.extra.map((e) => [e.key, e.value]))) })}
              </p>
            )}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={pending || !name.trim()} data-testid="save-method">
              {pending && <Loader2 aria-hidden className="animate-spin" />}
              {pending ? t("saving") : t("save")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
