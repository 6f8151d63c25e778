"use client";

import { useId, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { Loader2, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
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
  type DetailsDraft,
  type FormType,
} from "@/lib/admin/payment-details";
import { formatRate } from "@/lib/format";
import { notify } from "@/lib/notify";
import { useExchangeRates } from "@/lib/swr/use-admin";
import { useDetailsText, useTypeLabel } from "./payment-methods-tab";

/** Create or edit a payment method; the detail fields follow the type (SPEC §3, §5). */
export function PaymentMethodDialog({ method, onClose, onSaved }: { method: PaymentMethod | null; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("admin.methodForm");
  const tm = useTranslations("admin.methods");
  const tc = useTranslations("admin.common");
  const locale = useLocale();
  const typeLabel = useTypeLabel();
  const detailsLine = useDetailsText();
  const { data: rates } = useExchangeRates();
  const [name, setName] = useState(method?.name ?? "");
  // A stored type the form does not offer (zelle, mobile_payment…) is kept, its details edited
  // as free fields.
  const [type, setType] = useState<string>(method?.type ?? "digital");
  const fields: FormType = formTypeOf(type);
  const typeOptions: string[] = method && !isFormType(method.type) ? [...FORM_TYPES, method.type] : [...FORM_TYPES];
  const [draft, setDraft] = useState<DetailsDraft>(() => (method ? draftFromDetails(method.type, method.details) : emptyDraft()));
  const [rateId, setRateId] = useState(method?.exchangeRateId ? String(method.exchangeRateId) : "");
  const [pending, setPending] = useState(false);
  const id = useId();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim() || pending) return;
    setPending(true);
    try {
      await savePaymentMethod(
        { name: name.trim(), type, details: detailsFor(fields, draft), exchangeRateId: rateId ? Number(rateId) : null, active: true },
        method?.id,
      );
      notify.success(method ? tm("updated") : tm("created"), { description: name.trim() });
      onSaved();
      onClose();
    } catch (error) {
      notify.error(method ? tm("updateError") : tm("createError"), { description: errorMessage(error, method ? tm("updateError") : tm("createError")) });
      setPending(false);
    }
  }

  const setRow = (index: number, part: "key" | "value", value: string) =>
    setDraft((d) => ({ ...d, digital: d.digital.map((row, i) => (i === index ? { ...row, [part]: value } : row)) }));

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-xl" closeLabel={tc("close")} data-testid="method-dialog">
        <DialogHeader>
          <DialogTitle>{method ? t("editTitle") : t("createTitle")}</DialogTitle>
          <DialogDescription>{t("activeNote")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-name`}>{t("name")}</Label>
            <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} placeholder={t("namePlaceholder")} maxLength={100} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-type`}>{t("type")}</Label>
              <NativeSelect id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value)} className="h-11">
                {typeOptions.map((ft) => (
                  <option key={ft} value={ft}>
                    {typeLabel(ft)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-rate`}>{t("exchangeRate")}</Label>
              <NativeSelect id={`${id}-rate`} value={rateId} onChange={(e) => setRateId(e.target.value)} className="h-11">
                <option value="">{t("noRate")}</option>
                {(rates ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.fromCurrency} → {r.toCurrency} (1 : {formatRate(r.rate, locale)})
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
          <fieldset className="grid gap-3 rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">{t("details")}</legend>
            {fields === "digital" && (
              <>
                {draft.digital.map((row, index) => (
                  <div key={index} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2" data-testid="detail-row">
                    <div className="grid gap-1">
                      <Label htmlFor={`${id}-key-${index}`} className="text-xs">
                        {t("key")}
                      </Label>
                      <Input id={`${id}-key-${index}`} className="h-10 text-sm" value={row.key} placeholder={t("keyPlaceholder")} onChange={(e) => setRow(index, "key", e.target.value)} />
                    </div>
                    <div className="grid gap-1">
                      <Label htmlFor={`${id}-value-${index}`} className="text-xs">
                        {t("value")}
                      </Label>
                      <Input id={`${id}-value-${index}`} className="h-10 text-sm" value={row.value} placeholder={t("valuePlaceholder")} onChange={(e) => setRow(index, "value", e.target.value)} />
                    </div>
                    {canRemoveField(draft) ? (
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        className="size-10 text-danger-strong"
                        aria-label={t("removeField", { n: index + 1 })}
                        onClick={() => setDraft((d) => ({ ...d, digital: d.digital.filter((_, i) => i !== index) }))}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    ) : (
                      <span className="size-10" />
                    )}
                  </div>
                ))}
                <Button type="button" variant="outline" size="sm" className="w-fit" onClick={() => setDraft((d) => ({ ...d, digital: [...d.digital, { key: "", value: "" }] }))}>
                  <Plus aria-hidden />
                  {t("addField")}
                </Button>
              </>
            )}
            {fields === "bank" && (
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-bankName`}>{t("bankName")}</Label>
                  <Input id={`${id}-bankName`} value={draft.bank.bankName} onChange={(e) => setDraft((d) => ({ ...d, bank: { ...d.bank, bankName: e.target.value } }))} />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-accountType`}>{t("accountType")}</Label>
                  <NativeSelect
                    id={`${id}-accountType`}
                    value={draft.bank.accountType}
                    onChange={(e) => setDraft((d) => ({ ...d, bank: { ...d.bank, accountType: e.target.value as DetailsDraft["bank"]["accountType"] } }))}
                    className="h-11"
                  >
                    {BANK_ACCOUNT_TYPES.map((a) => (
                      <option key={a} value={a}>
                        {t(`accountTypes.${a}`)}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
                <div className="grid gap-1.5 sm:col-span-2">
                  <Label htmlFor={`${id}-accountNumber`}>{t("accountNumber")}</Label>
                  <Input
                    id={`${id}-accountNumber`}
                    inputMode="numeric"
                    value={draft.bank.accountNumber}
                    onChange={(e) => setDraft((d) => ({ ...d, bank: { ...d.bank, accountNumber: e.target.value } }))}
                  />
                </div>
              </div>
            )}
            {fields === "crypto" && (
              <div className="grid gap-3">
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-wallet`}>{t("walletAddress")}</Label>
                  <Input
                    id={`${id}-wallet`}
                    className="font-mono text-sm"
                    spellCheck={false}
                    value={draft.crypto.walletAddress}
                    onChange={(e) => setDraft((d) => ({ ...d, crypto: { ...d.crypto, walletAddress: e.target.value } }))}
                  />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-network`}>{t("network")}</Label>
                  <NativeSelect
                    id={`${id}-network`}
                    value={draft.crypto.network}
                    onChange={(e) => setDraft((d) => ({ ...d, crypto: { ...d.crypto, network: e.target.value as DetailsDraft["crypto"]["network"] } }))}
                    className="h-11"
                  >
                    {CRYPTO_NETWORKS.map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
              </div>
            )}
            {fields !== "digital" && draft.extra.length > 0 && (
              <p className="text-xs text-muted-foreground" data-testid="kept-details">
                {t("keptDetails", { details: detailsLine(Object.fromEntries(draft.extra.map((e) => [e.key, e.value]))) })}
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
