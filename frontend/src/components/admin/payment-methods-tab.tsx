"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { Pencil, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deletePaymentMethod } from "@/lib/api/admin";
import type { PaymentMethod } from "@/lib/api/types";
import { detailsText } from "@/lib/admin/payment-details";
import { usePaymentDetailLabels } from "@/lib/use-payment-details";
import { formatRate } from "@/lib/format";
import { useInvalidate } from "@/lib/swr/cache";
import { useAdminPaymentMethods } from "@/lib/swr/use-payment-methods";
import { CardFact, CatalogCard, CatalogTab, removeWithToast } from "./catalog-tab";
import { ConfirmDeleteDialog } from "./confirm-dialog";

const PaymentMethodDialog = dynamic(() => import("./payment-method-dialog").then((m) => m.PaymentMethodDialog), { ssr: false });

export function useTypeLabel() {
  const t = useTranslations("admin.methods");
  return (type: string) => (t.has(`types.${type}` as never) ? t(`types.${type}` as never) : type);
}

/** A method's details as one line in the panel's language ("Banco: Banesco · Tipo de cuenta: Ahorro"). */
export function useDetailsText() {
  const { label, value } = usePaymentDetailLabels();
  return (details: Record<string, unknown> | null | undefined) => detailsText(details, label, value);
}

/** The payment methods tab (SPEC §2 "Payments tab"). */
export function PaymentMethodsTab() {
  const t = useTranslations("admin.methods");
  const locale = useLocale();
  const typeLabel = useTypeLabel();
  const { data: methods, isLoading, error, mutate: reload } = useAdminPaymentMethods();
  const detailsLine = useDetailsText();
  const [editing, setEditing] = useState<PaymentMethod | "new" | null>(null);
  const [deleting, setDeleting] = useState<PaymentMethod | null>(null);
  const refresh = useInvalidate().paymentMethods;
  // 'Referencia obligatoria (mín. 6)' on a method whose buyers must type their payment's reference.
  const referenceNote = (m: PaymentMethod) =>
    m.referenceRequired ? (
      <span className="block text-xs font-medium text-foreground" data-testid="method-reference">
        {m.referenceMinLength > 0 ? t("referenceRequiredMin", { min: m.referenceMinLength }) : t("referenceRequired")}
      </span>
    ) : null;

  const actions = (m: PaymentMethod, labelClass?: string) => (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setEditing(m)} aria-label={t("editLabel", { name: m.name })}>
        <Pencil aria-hidden />
        <span className={labelClass}>{t("edit")}</span>
      </Button>
      <Button type="button" variant="outline" size="sm" className="text-danger-strong" onClick={() => setDeleting(m)} aria-label={t("deleteLabel", { name: m.name })}>
        <Trash2 aria-hidden />
        <span className={labelClass}>{t("delete")}</span>
      </Button>
    </>
  );

  function remove(method: PaymentMethod): Promise<boolean> {
    return removeWithToast(() => deletePaymentMethod(method.id), { title: t("deleted"), description: method.name }, t("deleteError"), refresh);
  }

  return (
    <CatalogTab
      testId="methods-tab"
      title={t("title")}
      addLabel={t("add")}
      onAdd={() => setEditing("new")}
      loading={isLoading && !methods}
      error={Boolean(error) && !methods}
      onRetry={() => void reload()}
      empty={!methods?.length}
      emptyText={t("empty")}
      cards={methods?.map((m) => (
        <CatalogCard
          key={m.id}
          testId="method-card"
          dataName={m.name}
          title={m.name}
          badge={<Badge variant={m.active ? "success" : "secondary"}>{m.active ? t("active") : t("inactive")}</Badge>}
          actions={actions(m)}
        >
          <CardFact label={t("colType")}>{typeLabel(m.type)}</CardFact>
          <CardFact label={t("colRate")}>{m.exchangeRate ? `${m.exchangeRate.fromCurrency} → ${m.exchangeRate.toCurrency} · 1 : ${formatRate(m.exchangeRate.rate, locale)}` : t("noRate")}</CardFact>
          {referenceNote(m)}
          {Object.keys(m.details ?? {}).length > 0 && <p className="break-words text-xs text-muted-foreground">{detailsLine(m.details)}</p>}
        </CatalogCard>
      ))}
      after={
        <>
          {editing && <PaymentMethodDialog method={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
          {deleting && (
            <ConfirmDeleteDialog
              title={t("deleteTitle")}
              question={t("deleteQuestion", { name: deleting.name })}
              confirmLabel={t("deleteConfirm")}
              onConfirm={() => remove(deleting)}
              onClose={() => setDeleting(null)}
            />
          )}
        </>
      }
    >
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("colName")}</TableHead>
                <TableHead>{t("colType")}</TableHead>
                <TableHead>{t("colRate")}</TableHead>
                <TableHead>{t("colStatus")}</TableHead>
                <TableHead>{t("colDetails")}</TableHead>
                <TableHead className="text-right">{t("colActions")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {methods?.map((m) => (
                <TableRow key={m.id} data-testid="method-row" data-name={m.name}>
                  <TableCell className="font-medium">{m.name}</TableCell>
                  <TableCell className="whitespace-nowrap">{typeLabel(m.type)}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    {m.exchangeRate ? (
                      <>
                        <span className="font-medium">
                          {m.exchangeRate.fromCurrency} → {m.exchangeRate.toCurrency}
                        </span>
                        <span className="block text-xs tabular-nums text-muted-foreground">1 : {formatRate(m.exchangeRate.rate, locale)}</span>
                      </>
                    ) : (
                      <span className="text-muted-foreground">{t("noRate")}</span>
                    )}
                  </TableCell>
                  <TableCell>
                    <Badge variant={m.active ? "success" : "secondary"}>{m.active ? t("active") : t("inactive")}</Badge>
                  </TableCell>
                  <TableCell className="min-w-56 max-w-96 text-xs text-muted-foreground">
                    {referenceNote(m)}
                    {detailsLine(m.details)}
                  </TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">{actions(m, "max-lg:sr-only")}</div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
    </CatalogTab>
  );
}
