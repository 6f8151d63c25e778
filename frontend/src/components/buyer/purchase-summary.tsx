"use client";

import { useLocale, useTranslations } from "next-intl";
import { CalendarDays, FileText, Printer } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { invoiceUrl } from "@/lib/api/client";
import type { BuyerPurchaseView } from "@/lib/api/types";
import { isZero } from "@/lib/decimal";
import { formatConverted, formatCount, formatDate, formatDateTime, formatRate, formatUsd, padTicket, ticketWidth } from "@/lib/format";

/**
 * What was bought: the raffle, the numbers, the total (and the converted amount at the rate
 * locked when buying), who and how, and the receipt and invoice, read with the purchase's key.
 */
export function PurchaseSummary({ view, purchaseToken }: { view: BuyerPurchaseView; purchaseToken: string }) {
  const t = useTranslations("buyerPage");
  const tc = useTranslations("common");
  const tp = useTranslations("purchase");
  const locale = useLocale();
  const { purchase, raffle } = view;
  const width = ticketWidth(raffle.maxTickets);
  const labels = purchase.ticketLabels.length ? purchase.ticketLabels : purchase.ticketNumbers.map((n) => padTicket(n, width));
  const converted = purchase.convertedTotal ?? null;
  const link = buttonVariants({ variant: "outline", className: "w-full justify-start sm:w-auto" });

  return (
    <section aria-labelledby="summary-title" className="space-y-5">
      <h2 id="summary-title" className="sr-only">{t("summary")}</h2>
      <div className="overflow-hidden rounded-xl border bg-card shadow-sm">
        <img src={raffle.image} alt={raffle.title} width={960} height={600} className="aspect-[16/10] w-full bg-muted object-cover" />
        <div className="space-y-1 p-4 sm:p-5">
          <p className="text-xl font-bold leading-snug" data-testid="buyer-raffle-title">{raffle.title}</p>
          <p className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
            <CalendarDays aria-hidden className="size-4" />
            {raffle.drawDate ? tc("drawDate", { date: formatDate(raffle.drawDate, locale) }) : tc("noDrawDate")}
          </p>
        </div>
      </div>

      <div className="space-y-2">
        <h3 className="font-semibold">{t("numbers", { count: labels.length, shown: formatCount(labels.length, locale) })}</h3>
        <ul className="flex flex-wrap gap-1.5" data-testid="buyer-numbers">
          {labels.map((label) => (
            <li key={label} className="rounded-md bg-primary px-2 py-0.5 font-mono text-sm text-primary-foreground">{label}</li>
          ))}
        </ul>
      </div>

      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl border bg-card p-4 text-sm shadow-sm sm:p-5">
        <dt className="text-muted-foreground">{t("total")}</dt>
        <dd className="text-right font-semibold" data-testid="buyer-total">{formatUsd(purchase.totalAmount, locale)}</dd>
        {!isZero(purchase.discountApplied) && (
          <>
            <dt className="text-muted-foreground">{t("discount")}</dt>
            <dd className="text-right">{formatUsd(purchase.discountApplied, locale)}</dd>
          </>
        )}
        {converted && (
          <>
            <dt className="text-muted-foreground">{t("converted", { currency: converted.currency })}</dt>
            <dd className="text-right font-semibold" data-testid="buyer-converted">
              {formatConverted(purchase.totalAmount, converted.rate, converted.currency, locale)}
              <span className="block text-xs font-normal text-muted-foreground">{tp("rate", { from: "USD", rate: formatRate(converted.rate, locale), to: converted.currency })}</span>
            </dd>
          </>
        )}
        <dt className="text-muted-foreground">{t("method")}</dt>
        <dd className="text-right">{purchase.paymentMethod}</dd>
        <dt className="text-muted-foreground">{t("buyer")}</dt>
        <dd className="min-w-0 text-right">
          {purchase.customerName}
          <span className="block break-all text-xs text-muted-foreground">{purchase.customerEmail}</span>
        </dd>
        <dt className="text-muted-foreground">{t("date")}</dt>
        <dd className="text-right">{formatDateTime(purchase.createdAt, locale)}</dd>
      </dl>

      <div className="space-y-2">
        <h3 className="font-semibold">{t("documents")}</h3>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <a className={link} href={invoiceUrl(purchase.id, purchaseToken, "pdf")} target="_blank" rel="noopener noreferrer" data-testid="buyer-receipt-link">
            <FileText aria-hidden />
            {t("receiptPdf")}
          </a>
          <a className={link} href={invoiceUrl(purchase.id, purchaseToken, "html")} target="_blank" rel="noopener noreferrer" data-testid="buyer-invoice-link">
            <Printer aria-hidden />
            {t("invoice")}
          </a>
        </div>
      </div>
    </section>
  );
}
