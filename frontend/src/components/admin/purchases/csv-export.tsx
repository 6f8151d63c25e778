"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { Download, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { PurchaseFilters } from "@/lib/api/admin";

/** Exports every purchase the filters find, streamed by the server (the export module loads on click). */
export function CsvExport({ filters, total }: { filters: PurchaseFilters; total: number }) {
  const t = useTranslations("admin.purchases");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  async function run() {
    setProgress({ done: 0, total });
    try {
      const { exportPurchasesCsv } = await import("@/lib/admin/export");
      const count = await exportPurchasesCsv(filters, total, (done, all) => setProgress({ done, total: all }));
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
