"use client";

import { useTranslations } from "next-intl";
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { Button } from "@/components/ui/button";
import { pageWindow } from "@/lib/admin/pagination";

/** First, previous, up to 5 page buttons centred on the current page, next, last (SPEC §2). */
export function Pagination({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  const t = useTranslations("admin.pagination");
  if (totalPages <= 1) return null;
  const atStart = page <= 1;
  const atEnd = page >= totalPages;
  return (
    <nav aria-label={t("label")} className="flex flex-wrap items-center justify-center gap-1" data-testid="pagination">
      <Button type="button" variant="outline" size="icon" className="size-9" disabled={atStart} onClick={() => onPage(1)} aria-label={t("first")}>
        <ChevronsLeft aria-hidden />
      </Button>
      <Button type="button" variant="outline" size="icon" className="size-9" disabled={atStart} onClick={() => onPage(page - 1)} aria-label={t("previous")}>
        <ChevronLeft aria-hidden />
      </Button>
      {pageWindow(page, totalPages).map((n) => (
        <Button
          key={n}
          type="button"
          variant={n === page ? "default" : "outline"}
          size="sm"
          className="min-w-9 tabular-nums"
          aria-label={t("page", { page: n })}
          aria-current={n === page ? "page" : undefined}
          onClick={() => onPage(n)}
        >
          {n}
        </Button>
      ))}
      <Button type="button" variant="outline" size="icon" className="size-9" disabled={atEnd} onClick={() => onPage(page + 1)} aria-label={t("next")}>
        <ChevronRight aria-hidden />
      </Button>
      <Button type="button" variant="outline" size="icon" className="size-9" disabled={atEnd} onClick={() => onPage(totalPages)} aria-label={t("last")}>
        <ChevronsRight aria-hidden />
      </Button>
    </nav>
  );
}
