"use client";

import { useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { Loader2, Pencil, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deleteRate, saveRate } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { ExchangeRate } from "@/lib/api/types";
import { formatDateTime, formatRate } from "@/lib/format";
import { notify } from "@/lib/notify";
import { useInvalidate } from "@/lib/swr/cache";
import { useExchangeRates } from "@/lib/swr/use-exchange-rates";
import { CardFact, CatalogCard, CatalogTab, removeWithToast } from "./catalog-tab";
import { ConfirmDeleteDialog } from "./confirm-dialog";
import { CURRENCIES, parseRateInput, rateSchema, type RateValues } from "@/lib/validations/rate";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";

/**
 * The exchange rates tab (SPEC §2 "Rates tab"), for a role with the catalogue permission: add
 * and edit; delete only with `canDelete` (the spec's privileged admin: the settings permission).
 */
export function RatesTab({ canDelete }: { canDelete: boolean }) {
  const t = useTranslations("admin.rates");
  const locale = useLocale();
  const { data: rates, isLoading, error, mutate: reload } = useExchangeRates();
  const [editing, setEditing] = useState<ExchangeRate | "new" | null>(null);
  const [deleting, setDeleting] = useState<ExchangeRate | null>(null);
  const refresh = useInvalidate().exchangeRates;

  const actions = (r: ExchangeRate, labelClass?: string) => (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setEditing(r)} aria-label={t("editLabel", { from: r.fromCurrency, to: r.toCurrency })}>
        <Pencil aria-hidden />
        <span className={labelClass}>{t("edit")}</span>
      </Button>
      {canDelete && (
        <Button type="button" variant="outline" size="sm" className="text-danger-strong" onClick={() => setDeleting(r)} aria-label={t("deleteLabel", { from: r.fromCurrency, to: r.toCurrency })}>
          <Trash2 aria-hidden />
          <span className={labelClass}>{t("delete")}</span>
        </Button>
      )}
    </>
  );

  function remove(rate: ExchangeRate): Promise<boolean> {
    return removeWithToast(() => deleteRate(rate.id), { title: t("deletedToast") }, t("deleteError"), refresh);
  }

  return (
    <CatalogTab
      testId="rates-tab"
      title={t("title")}
      addLabel={t("add")}
      onAdd={() => setEditing("new")}
      loading={isLoading && !rates}
      error={Boolean(error) && !rates}
      onRetry={() => void reload()}
      empty={!rates?.length}
      emptyText={t("empty")}
      cards={rates?.map((r) => (
        <CatalogCard
          key={r.id}
          testId="rate-card"
          dataName={`${r.fromCurrency}-${r.toCurrency}`}
          title={`${r.fromCurrency} → ${r.toCurrency}`}
          badge={<span className="font-mono text-sm tabular-nums">{formatRate(r.rate, locale)}</span>}
          actions={actions(r)}
        >
          <CardFact label={t("colUpdated")}>{formatDateTime(r.updatedAt, locale)}</CardFact>
        </CatalogCard>
      ))}
      after={
        <>
          {editing && <RateDialog rate={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
          {deleting && (
            <ConfirmDeleteDialog
              title={t("deleteTitle")}
              question={t("deleteQuestion")}
              confirmLabel={t("deleteConfirm")}
              onConfirm={() => remove(deleting)}
              onClose={() => setDeleting(null)}
            >
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-muted p-3 text-sm" data-testid="rate-facts">
                <dt className="text-muted-foreground">{t("from")}</dt>
                <dd className="font-medium">{deleting.fromCurrency}</dd>
                <dt className="text-muted-foreground">{t("to")}</dt>
                <dd className="font-medium">{deleting.toCurrency}</dd>
                <dt className="text-muted-foreground">{t("rate")}</dt>
                <dd className="font-mono">{formatRate(deleting.rate, locale)}</dd>
                <dt className="text-muted-foreground">{t("updated")}</dt>
                <dd>{formatDateTime(deleting.updatedAt, locale)}</dd>
              </dl>
            </ConfirmDeleteDialog>
          )}
        </>
      }
    >
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("colFrom")}</TableHead>
                <TableHead>{t("colTo")}</TableHead>
                <TableHead className="text-right">{t("colRate")}</TableHead>
                <TableHead>{t("colUpdated")}</TableHead>
                <TableHead className="text-right">{t("colActions")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rates?.map((r) => (
                <TableRow key={r.id} data-testid="rate-row">
                  <TableCell className="font-medium">{r.fromCurrency}</TableCell>
                  <TableCell className="font-medium">{r.toCurrency}</TableCell>
                  <TableCell className="text-right font-mono tabular-nums">{formatRate(r.rate, locale)}</TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">{formatDateTime(r.updatedAt, locale)}</TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">{actions(r, "max-lg:sr-only")}</div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
    </CatalogTab>
  );
}

function RateDialog({ rate, onClose, onSaved }: { rate: ExchangeRate | null; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("admin.rateForm");
  const tr = useTranslations("admin.rates");
  const tc = useTranslations("admin.common");
  const tf = useTranslations("fieldErrors");
  const locale = useLocale();
  const schema = useMemo(() => rateSchema({ invalid: t("invalid"), sameCurrency: tf("sameCurrency") }), [t, tf]);
  const { control, handleSubmit, setError, formState } = useForm<RateValues>({
    resolver: zodResolver(schema),
    defaultValues: { fromCurrency: rate?.fromCurrency ?? "USD", toCurrency: rate?.toCurrency ?? "VES", rate: rate?.rate ?? "" },
  });
  const [from, to, value] = useWatch({ control, name: ["fromCurrency", "toCurrency", "rate"] });
  const parsed = parseRateInput(value);
  const pending = formState.isSubmitting;

  async function submit(values: RateValues) {
    try {
      await saveRate({ fromCurrency: values.fromCurrency, toCurrency: values.toCurrency, rate: parseRateInput(values.rate)! }, rate?.id);
      notify.success(rate ? tr("updatedToast") : tr("createdToast"));
      onSaved();
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, setError, ["fromCurrency", "toCurrency", "rate"]);
      const title = rate ? tr("updateError") : tr("createError");
      notify.error(title, { description: errorMessage(error, title) });
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="rate-dialog">
        <DialogHeader>
          <DialogTitle>{rate ? t("editTitle") : t("createTitle")}</DialogTitle>
          <DialogDescription>{t("rateHint")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-4">
          <div className="grid grid-cols-2 gap-3">
            {(["fromCurrency", "toCurrency"] as const).map((name) => (
              <FormField key={name} control={control} name={name} id={name === "fromCurrency" ? "rate-from" : "rate-to"} label={name === "fromCurrency" ? t("from") : t("to")}>
                {(field) => (
                  <NativeSelect {...field} className="h-11">
                    {CURRENCIES.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              </FormField>
            ))}
          </div>
          <FormField
            control={control}
            name="rate"
            id="rate-value"
            label={t("rate")}
            hint={parsed !== null ? t("preview", { from, to, rate: formatRate(String(parsed), locale) }) : "\u00a0"}
          >
            {(field) => <Input {...field} type="number" inputMode="decimal" step="0.01" min="0" />}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={pending || !value.trim()} data-testid="save-rate">
              {pending && <Loader2 aria-hidden className="animate-spin" />}
              {pending ? t("saving") : t("save")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
