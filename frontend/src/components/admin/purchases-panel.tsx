"use client";

import { useMemo, useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { CircleDollarSign, Clock, ListChecks, Loader2, Rows3, Ticket } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { purchaseSearchQuery, type PageAnchor, type PurchaseFilters } from "@/lib/api/admin";
import type { AdminPurchase, Raffle } from "@/lib/api/types";
import { anchorOf, clampPage, pageRange } from "@/lib/admin/pagination";
import { formatCalendarDay, formatCount, formatUsd, ticketWidth } from "@/lib/format";
import { usePurchasePage } from "@/lib/swr/use-purchases";
import { useAdminRaffles } from "@/lib/swr/use-raffles";
import { useStats } from "@/lib/swr/use-stats";
import { Pagination } from "./pagination";
import { CsvExport } from "./purchases/csv-export";
import { NO_FILTERS, PurchaseFilterBar, type FilterValues } from "./purchases/purchase-filters";
import { PurchaseList } from "./purchases/purchase-list";
import type { Decision } from "./purchases/types";
import { StatCards } from "./summary-cards";
import { useDebounced } from "./use-debounced";
import { useToday } from "./use-today";

const PurchaseDetailDialog = dynamic(() => import("./purchase-detail-dialog").then((m) => m.PurchaseDetailDialog), { ssr: false });
const DecisionDialog = dynamic(() => import("./decision-dialog").then((m) => m.DecisionDialog), { ssr: false });
const ReopenDialog = dynamic(() => import("./reopen-dialog").then((m) => m.ReopenDialog), { ssr: false });
// The review queue loads when its view is first opened.
const ProofQueueView = dynamic(() => import("./purchases/proof-queue").then((m) => m.ProofQueueView), { ssr: false });

/** The verification tab's two views: every purchase (the search), or the proofs waiting for review. */
type PanelView = "list" | "queue";

/** The spec's page of 10; operators with a long queue may show more at once. */
export const PAGE_SIZE = 10;
const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Ticket labels of a purchase, padded to its raffle's width. */
export function useTicketWidth(raffles: Raffle[] | undefined) {
  return useMemo(() => {
    const widths = new Map((raffles ?? []).map((r) => [r.id, ticketWidth(r.maxTickets)]));
    return (raffleId: number) => widths.get(raffleId) ?? 4;
  }, [raffles]);
}

/**
 * The purchase verification tab (mode "all") and the daily purchases tab (mode "today"):
 * filters, figures and pages all come from the server's paginated search (SPEC §2), but for the
 * day's figures, which are the sales figures of the day: shown only with `reports`.
 */
export function PurchasesPanel({ mode, reports }: { mode: "all" | "today"; reports: boolean }) {
  const t = useTranslations("admin.purchases");
  const td = useTranslations("admin.daily");
  const tq = useTranslations("admin.queue");
  const [view, setView] = useState<PanelView>("list");
  const [typed, setTyped] = useState<FilterValues>(NO_FILTERS);
  // The page shown, and the page it was reached from (deep pages are read from there).
  const [{ page, anchor }, setPosition] = useState<{ page: number; anchor: PageAnchor | null }>({ page: 1, anchor: null });
  const setPage = (next: number) => setPosition({ page: next, anchor: null });
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reopening, setReopening] = useState<AdminPurchase | null>(null);
  const locale = useLocale();
  // Renewed at midnight: the daily tab moves on to the new day by itself.
  const { day: today, offset } = useToday();
  const todayLabel = useMemo(() => formatCalendarDay(today, locale, "long"), [locale, today]);

  // Typing filters query the server after the text settles; each change goes back to page 1.
  const deferredName = useDebounced(typed.name);
  const deferredTickets = useDebounced(typed.tickets);
  const filters: PurchaseFilters = {
    raffleId: typed.raffleId ? Number(typed.raffleId) : null,
    status: typed.status,
    name: mode === "all" ? deferredName : "",
    tickets: mode === "all" ? deferredTickets : "",
    date: mode === "today" ? today : typed.date,
    utcOffsetMinutes: offset,
  };
  const filterKey = purchaseSearchQuery(filters, 1, pageSize);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  if (lastFilterKey !== filterKey) {
    setLastFilterKey(filterKey);
    setPage(1);
  }
  const query = purchaseSearchQuery(filters, page, pageSize, anchor);
  const { data, error, isLoading, isValidating, mutate } = usePurchasePage(query);
  const { data: raffles } = useAdminRaffles();
  const { data: todayStats } = useStats(mode === "today" && reports ? `date=${today}&utcOffsetMinutes=${offset}` : null);
  const widthOf = useTicketWidth(raffles);

  const summary = mode === "today" ? todayStats : data?.summary;
  const total = data?.total ?? 0;
  // Past the server's count cap only a floor is known: the cards say so instead of a figure.
  const capped = data?.totalCapped === true;
  const figure = (format: (s: NonNullable<typeof summary>) => string) => (summary ? format(summary) : capped ? "—" : undefined);
  const totalPages = data?.totalPages ?? 0;
  // The last rows of the last page were approved away (or left the filter): show the new last page.
  if (data && data.page === page && clampPage(page, totalPages) !== page) {
    setPage(clampPage(page, totalPages));
  }
  const range = pageRange(page, pageSize, total);
  const items = data?.items ?? [];
  // An empty page kept from another page number (while the clamped page loads) is not "no results".
  const loading = (isLoading && !data) || (data !== undefined && data.page !== page && items.length === 0);

  const header = (
    <div className="flex flex-wrap items-end justify-between gap-2">
      <div>
        <h2 className="text-xl font-bold">{mode === "all" ? t("title") : td("title")}</h2>
        <p className="text-sm text-muted-foreground">
          {mode === "all" ? t("subtitle") : td("subtitle", { date: todayLabel })}
        </p>
      </div>
      {mode === "all" && view === "list" && <CsvExport filters={filters} total={total} />}
    </div>
  );

  const list = (
    <>
      {(mode === "all" || reports) && (
        <StatCards
          className="grid grid-cols-3 gap-2 sm:gap-3"
          items={[
            // Scoped labels: these cover the search (or today), the dashboard's four cards cover everything.
            { label: mode === "all" ? t("searchTickets") : td("tickets"), value: figure((s) => formatCount(s.ticketsSold, locale)), icon: <Ticket aria-hidden />, testId: `${mode}-tickets` },
            {
              label: mode === "all" ? t("searchRevenue") : td("revenue"),
              value: figure((s) => formatUsd(s.totalRevenue, locale)),
              icon: <CircleDollarSign aria-hidden />,
              testId: `${mode}-revenue`,
            },
            { label: mode === "all" ? t("searchPending") : td("pending"), value: figure((s) => formatCount(s.pendingPurchases, locale)), icon: <Clock aria-hidden />, testId: `${mode}-pending` },
          ]}
        />
      )}

      <Card className="gap-0 py-0">
        <PurchaseFilterBar mode={mode} values={typed} onChange={setTyped} raffles={raffles} />
        {capped && (
          <p className="border-t px-4 py-2 text-sm text-amber-800 dark:text-amber-300" role="status" data-testid={`${mode}-capped`}>
            {t("tooManyToSum", { count: formatCount(total, locale) })}
          </p>
        )}

        <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm text-muted-foreground" aria-live="polite">
          <span data-testid={`${mode}-showing`}>{t(capped ? "showingMore" : "showing", { from: range.from, to: range.to, total })}</span>
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
          <PurchaseList mode={mode} items={items} widthOf={widthOf} onView={(p) => setDetailId(p.id)} onDecide={setDecision} />
        )}

        {totalPages > 1 && (
          <div className="border-t p-3">
            <Pagination page={page} totalPages={totalPages} onPage={(next) => setPosition({ page: next, anchor: anchorOf(page, data) })} />
          </div>
        )}
      </Card>
    </>
  );

  return (
    <div className="grid grid-cols-1 gap-4" data-testid={mode === "all" ? "purchases-panel" : "daily-panel"}>
      {mode === "all" ? (
        <Tabs value={view} onValueChange={(next) => setView(next as PanelView)} className="grid grid-cols-1 gap-4">
          {header}
          <div className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
            <TabsList aria-label={tq("views")} data-testid="purchase-views">
              <TabsTrigger value="list" data-testid="view-list">
                <Rows3 aria-hidden />
                {tq("list")}
              </TabsTrigger>
              <TabsTrigger value="queue" data-testid="view-queue">
                <ListChecks aria-hidden />
                {tq("queue")}
              </TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="list" className="grid grid-cols-1 gap-4">
            {list}
          </TabsContent>
          <TabsContent value="queue" className="grid grid-cols-1 gap-4">
            <ProofQueueView onOpen={setDetailId} />
          </TabsContent>
        </Tabs>
      ) : (
        <>
          {header}
          {list}
        </>
      )}

      {detailId !== null && (
        <PurchaseDetailDialog
          purchaseId={detailId}
          ticketWidth={widthOf}
          onClose={() => setDetailId(null)}
          onDecide={(purchase, next) => {
            setDetailId(null);
            setDecision({ purchase, status: next });
          }}
          onReopen={(purchase) => {
            setDetailId(null);
            setReopening(purchase);
          }}
        />
      )}
      {reopening && <ReopenDialog purchase={reopening} ticketWidth={widthOf(reopening.raffleId)} onClose={() => setReopening(null)} onDone={() => setReopening(null)} />}
      {decision && <DecisionDialog decision={decision} onClose={() => setDecision(null)} onDone={() => setDecision(null)} />}
    </div>
  );
}
