"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { ChartColumn, Download, Loader2, ScrollText, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { NO_AUDIT_FILTERS, type AuditFilters } from "@/lib/admin/audit";
import { defaultFiguresRange, type DayRange } from "@/lib/admin/audit-figures";
import { errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";
import { useAuditTrail } from "@/lib/swr/use-audit";
import { useDebounced } from "../use-debounced";
import { AuditFigures } from "./audit-figures";
import { AuditFilterBar } from "./audit-filters";
import { AuditList } from "./audit-list";
import { VerificationBanner } from "./verification-banner";
import { ListStates } from "../list-states";

/** The tab's two views: the entries themselves, or who decided purchases, how often and how fast. */
type AuditView = "entries" | "figures";

/**
 * 'Registro' (the audit permission, owners): the chain's check, then either the trail filtered by
 * who, action, target and days, newest first, 'Cargar más' for older entries, and every entry the
 * filters find as CSV; or the per-person figures. A decision taken meanwhile reads the pages and
 * figures shown again (cache.ts); the check runs when the tab opens.
 */
export function AuditTab({ onOpenPurchase }: { onOpenPurchase: (purchaseId: number) => void }) {
  const t = useTranslations("admin.audit");
  const [view, setView] = useState<AuditView>("entries");
  const [typed, setTyped] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [range, setRange] = useState<DayRange>(defaultFiguresRange);
  const actor = useDebounced(typed.actor);
  const target = useDebounced(typed.target);
  const filters: AuditFilters = { ...typed, actor, target };
  const { data, error, isLoading, isValidating, mutate, loadMore } = useAuditTrail(filters);
  const items = data?.items ?? [];

  return (
    <Tabs value={view} onValueChange={(next) => setView(next as AuditView)} className="grid grid-cols-1 gap-4" data-testid="audit-tab">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="min-w-0">
          <h2 className="text-xl font-bold">{t("title")}</h2>
          <p className="text-sm text-muted-foreground">{t("subtitle")}</p>
        </div>
        <AuditCsvExport filters={filters} empty={items.length === 0} hidden={view !== "entries"} />
      </div>

      <VerificationBanner />

      <div className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <TabsList aria-label={t("views")} data-testid="audit-views">
          <TabsTrigger value="entries" data-testid="audit-view-entries">
            <ScrollText aria-hidden />
            {t("entriesView")}
          </TabsTrigger>
          <TabsTrigger value="figures" data-testid="audit-view-figures">
            <ChartColumn aria-hidden />
            {t("figuresView")}
          </TabsTrigger>
        </TabsList>
      </div>

      <TabsContent value="entries">
        <Card className="gap-0 py-0">
          <AuditFilterBar values={typed} onChange={setTyped} />
          <div className="flex items-center gap-3 px-4 py-2 text-sm text-muted-foreground" aria-live="polite">
            <span data-testid="audit-shown">{t("shown", { count: items.length })}</span>
            {isValidating && data && <Loader2 aria-hidden className="size-4 animate-spin" />}
          </div>

          <ListStates
            failed={Boolean(error) && !data}
            loading={isLoading && !data}
            empty={items.length === 0}
            errorText={t("loadError")}
            retryText={t("retry")}
            onRetry={() => void mutate()}
            emptyText={t("empty")}
            testId="audit"
            bordered
          >
            <div className="border-t">
              <AuditList items={items} onOpenPurchase={onOpenPurchase} />
            </div>
          </ListStates>

          {data?.nextBefore != null && (
            <div className="border-t p-3 text-center">
              <Button type="button" variant="outline" onClick={loadMore} disabled={isValidating} data-testid="audit-load-more">
                {isValidating && <Loader2 aria-hidden className="animate-spin" />}
                {t("loadMore")}
              </Button>
            </div>
          )}
        </Card>
      </TabsContent>
      <TabsContent value="figures">
        <AuditFigures range={range} onRangeChange={setRange} />
      </TabsContent>
    </Tabs>
  );
}

/**
 * Every entry the filters find, as the server writes it (not only the pages loaded): streamed,
 * counted as it comes, and stopped on 'Cancelar'. While it runs it stays in the header whichever
 * view is shown, so its progress and its cancel stay in reach.
 */
function AuditCsvExport({ filters, empty, hidden }: { filters: AuditFilters; empty: boolean; hidden: boolean }) {
  const t = useTranslations("admin.audit");
  const [done, setDone] = useState<number | null>(null);
  const running = useRef<AbortController | null>(null);
  async function run() {
    const controller = new AbortController();
    running.current = controller;
    setDone(0);
    try {
      const { exportAuditCsv } = await import("@/lib/admin/export");
      const count = await exportAuditCsv(filters, setDone, controller.signal);
      notify.success(t("exported"), { description: t("exportedText", { count }) });
    } catch (error) {
      // A cancel is what was asked for, not a failure.
      if (!controller.signal.aborted) notify.error(t("exportError"), { description: errorMessage(error, "") || undefined });
    } finally {
      running.current = null;
      setDone(null);
    }
  }
  if (hidden && done === null) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="button" variant="outline" size="sm" onClick={run} disabled={done !== null || empty} data-testid="audit-export-csv">
        {done !== null ? <Loader2 aria-hidden className="animate-spin" /> : <Download aria-hidden />}
        {done !== null ? t("exporting", { count: done }) : t("exportCsv")}
      </Button>
      {done !== null && (
        <Button type="button" variant="ghost" size="sm" onClick={() => running.current?.abort()} data-testid="audit-export-cancel">
          <X aria-hidden />
          {t("cancelExport")}
        </Button>
      )}
    </div>
  );
}
