"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { Download, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { auditCsv, NO_AUDIT_FILTERS, type AuditFilters } from "@/lib/admin/audit";
import { saveFile } from "@/lib/admin/csv";
import { localDay } from "@/lib/admin/dates";
import type { AuditEntry } from "@/lib/api/types";
import { notify } from "@/lib/notify";
import { useAuditTrail } from "@/lib/swr/use-audit";
import { useDebounced } from "../use-debounced";
import { AuditFilterBar } from "./audit-filters";
import { AuditList } from "./audit-list";
import { VerificationBanner } from "./verification-banner";

/**
 * 'Registro' (the audit permission, owners): the chain's check, then the trail filtered by who,
 * action, target and days, newest first, 'Cargar más' for older entries, and the entries loaded
 * as CSV. A decision taken meanwhile reads the pages shown again (cache.ts); the check runs when
 * the tab opens.
 */
export function AuditTab({ onOpenPurchase }: { onOpenPurchase: (purchaseId: number) => void }) {
  const t = useTranslations("admin.audit");
  const [typed, setTyped] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const actor = useDebounced(typed.actor);
  const target = useDebounced(typed.target);
  const { data, error, isLoading, isValidating, mutate, loadMore } = useAuditTrail({ ...typed, actor, target });
  const items = data?.items ?? [];

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="audit-tab">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="min-w-0">
          <h2 className="text-xl font-bold">{t("title")}</h2>
          <p className="text-sm text-muted-foreground">{t("subtitle")}</p>
        </div>
        <AuditCsvExport items={items} />
      </div>

      <VerificationBanner />

      <Card className="gap-0 py-0">
        <AuditFilterBar values={typed} onChange={setTyped} />
        <div className="flex items-center gap-3 px-4 py-2 text-sm text-muted-foreground" aria-live="polite">
          <span data-testid="audit-shown">{t("shown", { count: items.length })}</span>
          {isValidating && data && <Loader2 aria-hidden className="size-4 animate-spin" />}
        </div>

        {error && !data ? (
          <div className="grid justify-items-center gap-3 border-t p-8 text-center" role="alert" data-testid="audit-error">
            <p>{t("loadError")}</p>
            <Button type="button" variant="outline" onClick={() => void mutate()}>
              {t("retry")}
            </Button>
          </div>
        ) : isLoading && !data ? (
          <p role="status" className="border-t p-8 text-center text-muted-foreground">
            <Loader2 aria-hidden className="mx-auto mb-2 size-5 animate-spin" />
          </p>
        ) : items.length === 0 ? (
          <p className="border-t p-8 text-center text-muted-foreground" data-testid="audit-empty">
            {t("empty")}
          </p>
        ) : (
          <div className="border-t">
            <AuditList items={items} onOpenPurchase={onOpenPurchase} />
          </div>
        )}

        {data?.nextBefore != null && (
          <div className="border-t p-3 text-center">
            <Button type="button" variant="outline" onClick={loadMore} disabled={isValidating} data-testid="audit-load-more">
              {isValidating && <Loader2 aria-hidden className="animate-spin" />}
              {t("loadMore")}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}

/** The entries loaded (with the filters applied) as CSV, written here: the file holds what the list shows. */
function AuditCsvExport({ items }: { items: AuditEntry[] }) {
  const t = useTranslations("admin.audit");
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={items.length === 0}
      onClick={() => {
        saveFile(new Blob([auditCsv(items)], { type: "text/csv;charset=utf-8" }), `registro-${localDay()}.csv`);
        notify.success(t("exported"), { description: t("exportedText", { count: items.length }) });
      }}
      data-testid="audit-export-csv"
    >
      <Download aria-hidden />
      {t("exportCsv")}
    </Button>
  );
}
