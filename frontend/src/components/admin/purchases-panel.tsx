"use client";

import { useDeferredValue, useEffect, useMemo, useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { Check, CircleDollarSign, Clock, Download, Eye, Loader2, Ticket, X } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { purchaseSearchQuery, type PurchaseFilters } from "@/lib/api/admin";
import type { AdminPurchase, Raffle } from "@/lib/api/types";
import { clampPage, pageRange } from "@/lib/admin/pagination";
import { formatCount, formatUsd, padTicket, ticketWidth } from "@/lib/format";
import { useAdminRaffles, usePurchasePage, useStats } from "@/lib/swr/use-admin";
import { DateField } from "./date-field";
import { Pagination } from "./pagination";
import { PurchaseStatusBadge } from "./status-badge";
import { StatCards } from "./summary-cards";
import { useToday } from "./use-today";

const PurchaseDetailDialog = dynamic(() => import("./purchase-detail-dialog").then((m) => m.PurchaseDetailDialog), { ssr: false });
const DecisionDialog = dynamic(() => import("./decision-dialog").then((m) => m.DecisionDialog), { ssr: false });

/** The spec's page of 10; operators with a long queue may show more at once. */
export const PAGE_SIZE = 10;
const PAGE_SIZES = [10, 25, 50, 100] as const;
const STATUSES = ["pending", "approved", "rejected", "test"] as const;
/** Numbers shown in a table row before the '+N' badge (SPEC §9). */
const ROW_NUMBERS = 3;

export type Decision = { purchase: AdminPurchase; status: "approved" | "rejected" };

/** Ticket labels of a purchase, padded to its raffle's width. */
export function useTicketWidth(raffles: Raffle[] | undefined) {
  return useMemo(() => {
    const widths = new Map((raffles ?? []).map((r) => [r.id, ticketWidth(r.maxTickets)]));
    return (raffleId: number) => widths.get(raffleId) ?? 4;
  }, [raffles]);
}

function TicketCell({ numbers, width }: { numbers: number[]; width: number }) {
  const t = useTranslations("admin.purchases");
  const shown = numbers.slice(0, ROW_NUMBERS);
  const more = numbers.length - shown.length;
  return (
    <div className="flex max-w-56 flex-wrap items-center gap-1">
      {shown.map((n) => (
        <span key={n} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
          {padTicket(n, width)}
        </span>
      ))}
      {more > 0 && <Badge variant="secondary">{t("more", { count: more })}</Badge>}
    </div>
  );
}

/**
 * The purchase verification tab (mode "all") and the daily purchases tab (mode "today"):
 * filters, figures and pages all come from the server's paginated search (SPEC §2).
 */
export function PurchasesPanel({ mode }: { mode: "all" | "today" }) {
  const t = useTranslations("admin.purchases");
  const td = useTranslations("admin.daily");
  const ts = useTranslations("admin.status");
  const [raffleId, setRaffleId] = useState("");
  const [status, setStatus] = useState("all");
  const [name, setName] = useState("");
  const [tickets, setTickets] = useState("");
  const [date, setDate] = useState("");
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const locale = useLocale();
  // Renewed at midnight: the daily tab moves on to the new day by itself.
  const { day: today, offset } = useToday();
  const todayLabel = useMemo(
    () =>
      new Intl.DateTimeFormat(locale === "en" ? "en-US" : "es-ES", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
        new Date(`${today}T12:00:00Z`),
      ),
    [locale, today],
  );

  // Typing filters query the server after the text settles; each change goes back to page 1.
  const deferredName = useDebounced(name);
  const deferredTickets = useDebounced(tickets);
  const filters: PurchaseFilters = {
    raffleId: raffleId ? Number(raffleId) : null,
    status,
    name: mode === "all" ? deferredName : "",
    tickets: mode === "all" ? deferredTickets : "",
    date: mode === "today" ? today : date,
    utcOffsetMinutes: offset,
  };
  const filterKey = purchaseSearchQuery(filters, 1, pageSize);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  if (lastFilterKey !== filterKey) {
    setLastFilterKey(filterKey);
    setPage(1);
  }
  const query = purchaseSearchQuery(filters, page, pageSize);
  const { data, error, isLoading, isValidating, mutate } = usePurchasePage(query);
  const { data: raffles } = useAdminRaffles();
  const { data: todayStats } = useStats(mode === "today" ? `date=${today}&utcOffsetMinutes=${offset}` : "");
  const widthOf = useTicketWidth(raffles);

  const summary = mode === "today" ? todayStats : data?.summary;
  const total = data?.total ?? 0;
  const totalPages = data?.totalPages ?? 0;
  // The last rows of the last page were approved away (or left the filter): show the new last page.
  if (data && data.page === page && clampPage(page, totalPages) !== page) {
    setPage(clampPage(page, totalPages));
  }
  const range = pageRange(page, pageSize, total);
  const items = data?.items ?? [];
  // An empty page kept from another page number (while the clamped page loads) is not "no results".
  const loading = (isLoading && !data) || (data !== undefined && data.page !== page && items.length === 0);

  return (
    <div className="grid grid-cols-1 gap-4" data-testid={mode === "all" ? "purchases-panel" : "daily-panel"}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 className="text-xl font-bold">{mode === "all" ? t("title") : td("title")}</h2>
          <p className="text-sm text-muted-foreground">
            {mode === "all" ? t("subtitle") : td("subtitle", { date: todayLabel })}
          </p>
        </div>
        {mode === "all" && <CsvExport filters={filters} total={total} widthOf={widthOf} />}
      </div>

      <StatCards
        className="grid grid-cols-3 gap-2 sm:gap-3"
        items={[
          // Scoped labels: these cover the search (or today), the dashboard's four cards cover everything.
          { label: mode === "all" ? t("searchTickets") : td("tickets"), value: summary ? formatCount(summary.ticketsSold, locale) : undefined, icon: <Ticket aria-hidden />, testId: `${mode}-tickets` },
          {
            label: mode === "all" ? t("searchRevenue") : td("revenue"),
            value: summary ? formatUsd(summary.totalRevenue, locale) : undefined,
            icon: <CircleDollarSign aria-hidden />,
            testId: `${mode}-revenue`,
          },
          { label: mode === "all" ? t("searchPending") : td("pending"), value: summary ? formatCount(summary.pendingPurchases, locale) : undefined, icon: <Clock aria-hidden />, testId: `${mode}-pending` },
        ]}
      />

      <Card className="gap-0 py-0">
        <div className={mode === "all" ? "grid gap-3 border-b p-4 sm:grid-cols-2 lg:grid-cols-5" : "grid gap-3 border-b p-4 sm:grid-cols-2"}>
          <div className="grid gap-1.5">
            <Label htmlFor={`${mode}-raffle`}>{t("filterRaffle")}</Label>
            <NativeSelect id={`${mode}-raffle`} value={raffleId} onChange={(e) => setRaffleId(e.target.value)} className="h-10 text-sm">
              <option value="">{t("allRaffles")}</option>
              {(raffles ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </NativeSelect>
          </div>
          {mode === "all" && (
            <div className="grid gap-1.5">
              <Label htmlFor="filter-name">{t("filterName")}</Label>
              <Input id="filter-name" className="h-10 text-sm" type="search" value={name} placeholder={t("filterNamePlaceholder")} onChange={(e) => setName(e.target.value)} />
            </div>
          )}
          <div className="grid gap-1.5">
            <Label htmlFor={`${mode}-status`}>{t("filterStatus")}</Label>
            <NativeSelect id={`${mode}-status`} value={status} onChange={(e) => setStatus(e.target.value)} className="h-10 text-sm">
              <option value="all">{t("allStatuses")}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {ts(s)}
                </option>
              ))}
            </NativeSelect>
          </div>
          {mode === "all" && (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor="filter-tickets">{t("filterTickets")}</Label>
                <Input
                  id="filter-tickets"
                  className="h-10 text-sm"
                  inputMode="numeric"
                  value={tickets}
                  placeholder={t("filterTicketsPlaceholder")}
                  onChange={(e) => setTickets(e.target.value)}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="filter-date">{t("filterDate")}</Label>
                <div className="flex gap-1">
                  <DateField id="filter-date" value={date} onChange={setDate} />
                  <Button type="button" variant="outline" size="icon" className="size-10" disabled={!date} onClick={() => setDate("")} aria-label={t("clearDate")} title={t("clearDate")}>
                    <X aria-hidden />
                  </Button>
                </div>
              </div>
            </>
          )}
        </div>

        <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm text-muted-foreground" aria-live="polite">
          <span data-testid={`${mode}-showing`}>{t("showing", { from: range.from, to: range.to, total })}</span>
          <span className="flex items-center gap-3">
            {isValidating && data && <Loader2 aria-hidden className="size-4 animate-spin" />}
            {totalPages > 0 && <span data-testid={`${mode}-page-of`}>{t("pageOf", { page, pages: totalPages })}</span>}
            <label className="flex items-center gap-1.5">
              <span>{t("pageSize")}</span>
              <select
                value={pageSize}
                onChange={(e) => setPageSize(Number(e.target.value))}
                className="h-8 rounded-md border border-input bg-background px-1.5 text-sm text-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </label>
          </span>
        </div>

        {error && !data ? (
          <div className="grid justify-items-center gap-3 p-8 text-center" role="alert">
            <p>{t("loadError")}</p>
            <Button type="button" variant="outline" onClick={() => void mutate()}>
              {t("retry")}
            </Button>
          </div>
        ) : loading ? (
          <p role="status" className="p-8 text-center text-muted-foreground">
            <Loader2 aria-hidden className="mx-auto mb-2 size-5 animate-spin" />
          </p>
        ) : items.length === 0 ? (
          <p className="p-8 text-center text-muted-foreground" data-testid={`${mode}-empty`}>
            {mode === "all" ? t("empty") : td("empty")}
          </p>
        ) : (
          <>
          {/* Phones: one card per purchase, the actions within thumb reach. */}
          <ul className="divide-y sm:hidden" data-testid={`${mode}-cards`}>
            {items.map((p) => (
              <li key={p.id} className="grid gap-2 p-4" data-testid="purchase-card" data-reference={p.reference}>
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <div className="font-medium">{p.customerName}</div>
                    <div className="truncate text-xs text-muted-foreground">{p.customerEmail}</div>
                  </div>
                  <PurchaseStatusBadge status={p.status} />
                </div>
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span className="min-w-0 truncate">{p.raffleTitle}</span>
                  <span className="whitespace-nowrap font-semibold tabular-nums">{formatUsd(p.totalAmount, locale)}</span>
                </div>
                <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
                  <span className="font-mono">{p.reference}</span>
                  <span>{p.paymentMethod}</span>
                </div>
                <TicketCell numbers={p.ticketNumbers} width={widthOf(p.raffleId)} />
                <div className="flex gap-2">
                  <Button type="button" variant="outline" size="sm" className="flex-1" onClick={() => setDetailId(p.id)} aria-label={t("viewLabel", { reference: p.reference })}>
                    <Eye aria-hidden />
                    {t("view")}
                  </Button>
                  {p.status === "pending" && (
                    <>
                      <Button type="button" variant="success" size="sm" className="flex-1" onClick={() => setDecision({ purchase: p, status: "approved" })} aria-label={t("approveLabel", { reference: p.reference })}>
                        <Check aria-hidden />
                        {t("approve")}
                      </Button>
                      <Button type="button" variant="destructive" size="sm" className="flex-1" onClick={() => setDecision({ purchase: p, status: "rejected" })} aria-label={t("rejectLabel", { reference: p.reference })}>
                        <X aria-hidden />
                        {t("reject")}
                      </Button>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <div className="max-sm:hidden">
          <Table data-testid={`${mode}-table`}>
            <TableHeader>
              <TableRow>
                <TableHead>{t("customer")}</TableHead>
                <TableHead>{t("raffle")}</TableHead>
                <TableHead>{t("tickets")}</TableHead>
                <TableHead className="text-right">{t("total")}</TableHead>
                <TableHead>{t("method")}</TableHead>
                <TableHead>{t("status")}</TableHead>
                <TableHead className="text-right">{t("actions")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((p) => (
                <TableRow key={p.id} data-testid="purchase-row" data-reference={p.reference}>
                  <TableCell>
                    <div className="max-w-52 font-medium">{p.customerName}</div>
                    <div className="max-w-52 truncate text-xs text-muted-foreground">{p.customerEmail}</div>
                  </TableCell>
                  <TableCell>
                    <div className="line-clamp-2 max-w-44">{p.raffleTitle}</div>
                    <div className="font-mono text-xs text-muted-foreground">{p.reference}</div>
                  </TableCell>
                  <TableCell>
                    <TicketCell numbers={p.ticketNumbers} width={widthOf(p.raffleId)} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right font-medium tabular-nums">{formatUsd(p.totalAmount, locale)}</TableCell>
                  <TableCell className="whitespace-nowrap">{p.paymentMethod}</TableCell>
                  <TableCell>
                    <PurchaseStatusBadge status={p.status} />
                  </TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      <Button type="button" variant="outline" size="sm" onClick={() => setDetailId(p.id)} aria-label={t("viewLabel", { reference: p.reference })}>
                        <Eye aria-hidden />
                        <span className="max-xl:sr-only">{t("view")}</span>
                      </Button>
                      {p.status === "pending" && (
                        <>
                          <Button
                            type="button"
                            variant="success"
                            size="sm"
                            onClick={() => setDecision({ purchase: p, status: "approved" })}
                            aria-label={t("approveLabel", { reference: p.reference })}
                          >
                            <Check aria-hidden />
                            <span className="max-xl:sr-only">{t("approve")}</span>
                          </Button>
                          <Button
                            type="button"
                            variant="destructive"
                            size="sm"
                            onClick={() => setDecision({ purchase: p, status: "rejected" })}
                            aria-label={t("rejectLabel", { reference: p.reference })}
                          >
                            <X aria-hidden />
                            <span className="max-xl:sr-only">{t("reject")}</span>
                          </Button>
                        </>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          </div>
          </>
        )}

        {totalPages > 1 && (
          <div className="border-t p-3">
            <Pagination page={page} totalPages={totalPages} onPage={setPage} />
          </div>
        )}
      </Card>

      {detailId !== null && (
        <PurchaseDetailDialog
          purchaseId={detailId}
          ticketWidth={widthOf}
          onClose={() => setDetailId(null)}
          onDecide={(purchase, next) => {
            setDetailId(null);
            setDecision({ purchase, status: next });
          }}
        />
      )}
      {decision && <DecisionDialog decision={decision} onClose={() => setDecision(null)} onDone={() => setDecision(null)} />}
    </div>
  );
}

/** A value that follows `value` 300 ms after it stops changing. */
function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return useDeferredValue(settled);
}

function CsvExport({ filters, total, widthOf }: { filters: PurchaseFilters; total: number; widthOf: (raffleId: number) => number }) {
  const t = useTranslations("admin.purchases");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  async function run() {
    setProgress({ done: 0, total });
    try {
      const { exportPurchasesCsv } = await import("@/lib/admin/export");
      const count = await exportPurchasesCsv(filters, widthOf, (done, all) => setProgress({ done, total: all }));
      const { notify } = await import("@/lib/notify");
      notify.success(t("exported"), { description: t("exportedText", { count }) });
    } catch (error) {
      const [{ notify }, { errorMessage }] = await Promise.all([import("@/lib/notify"), import("@/lib/api/fetcher")]);
      notify.error(t("exportError"), { description: errorMessage(error, "") || undefined });
    } finally {
      setProgress(null);
    }
  }
  return (
    <Button type="button" variant="outline" size="sm" onClick={run} disabled={progress !== null || total === 0} data-testid="export-csv">
      {progress ? <Loader2 aria-hidden className="animate-spin" /> : <Download aria-hidden />}
      {progress ? t("exporting", { done: progress.done, total: progress.total }) : t("exportCsv")}
    </Button>
  );
}
