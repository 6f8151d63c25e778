"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { Pencil, Trash2, Trophy } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deleteRaffle } from "@/lib/api/admin";
import type { Raffle } from "@/lib/api/types";
import { formatCount, formatDate, formatDateTime, formatUsd } from "@/lib/format";
import { salesClosed } from "@/lib/sales";
import { RAFFLE_STATUSES } from "@/lib/validations/raffle";
import { useInvalidate } from "@/lib/swr/cache";
import { useAdminRaffles } from "@/lib/swr/use-raffles";
import { CardFact, CatalogCard, CatalogTab, removeWithToast } from "./catalog-tab";
import { ConfirmDeleteDialog } from "./confirm-dialog";

const RaffleDialog = dynamic(() => import("./raffle-dialog").then((m) => m.RaffleDialog), { ssr: false });
const DrawDialog = dynamic(() => import("./draw/draw-dialog").then((m) => m.DrawDialog), { ssr: false });

/** Description preview in the table (SPEC §9). */
export const DESCRIPTION_PREVIEW = 50;

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

const LABELLED = RAFFLE_STATUSES;

/** The raffles tab (SPEC §2 "Raffles tab"); the draw of each raffle only with `draws`. */
export function RafflesTab({ draws }: { draws: boolean }) {
  const t = useTranslations("admin.raffles");
  const td = useTranslations("admin.draw");
  const locale = useLocale();
  const { data: raffles, isLoading, error, mutate } = useAdminRaffles();
  const [editing, setEditing] = useState<Raffle | "new" | null>(null);
  const [deleting, setDeleting] = useState<Raffle | null>(null);
  const [drawing, setDrawing] = useState<Raffle | null>(null);
  const refresh = useInvalidate().raffles;

  const statusLabel = (status: string) => ((LABELLED as readonly string[]).includes(status) ? t(`statuses.${status as (typeof LABELLED)[number]}`) : status);

  /** The status, and whether sales have closed although it is on sale. */
  const status = (r: Raffle) => (
    <span className="flex flex-wrap gap-1">
      <Badge variant={r.status === "available" ? "success" : "secondary"}>{statusLabel(r.status)}</Badge>
      {salesClosed(r) && (
        <Badge variant="destructive" data-testid="raffle-sales-closed">
          {t("salesClosed")}
        </Badge>
      )}
    </span>
  );

  /** The draw date, and when sales close when that is earlier. */
  const draw = (r: Raffle) => (
    <>
      {r.drawDate ? formatDate(r.drawDate, locale) : t("notDefined")}
      {r.salesCloseAt && r.drawDate && r.salesCloseHoursBeforeDraw > 0 && (
        <span className="block text-xs text-muted-foreground" data-testid="raffle-sales-until">
          {t("salesUntil", { date: formatDateTime(r.salesCloseAt, locale, "short") })}
        </span>
      )}
    </>
  );

  /** Edit, prizes and draw, delete; labels hidden (still named) where the table is tight. */
  const actions = (r: Raffle, labelClass?: string) => (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setEditing(r)} aria-label={t("editLabel", { title: r.title })}>
        <Pencil aria-hidden />
        <span className={labelClass}>{t("edit")}</span>
      </Button>
      {draws && (
        <Button type="button" variant="outline" size="sm" onClick={() => setDrawing(r)} aria-label={td("openLabel", { title: r.title })} data-testid={`draw-button-${r.id}`}>
          <Trophy aria-hidden />
          <span className={labelClass}>{td("open")}</span>
        </Button>
      )}
      <Button type="button" variant="outline" size="sm" className="text-danger-strong" onClick={() => setDeleting(r)} aria-label={t("deleteLabel", { title: r.title })}>
        <Trash2 aria-hidden />
        <span className={labelClass}>{t("delete")}</span>
      </Button>
    </>
  );

  function remove(raffle: Raffle): Promise<boolean> {
    return removeWithToast(() => deleteRaffle(raffle.id), { title: t("deleted"), description: raffle.title }, t("deleteError"), refresh);
  }

  return (
    <CatalogTab
      testId="raffles-tab"
      title={t("title")}
      addLabel={t("create")}
      onAdd={() => setEditing("new")}
      loading={isLoading && !raffles}
      error={Boolean(error) && !raffles}
      onRetry={() => void mutate()}
      empty={!raffles?.length}
      emptyText={t("empty")}
      cards={raffles?.map((r) => (
        <CatalogCard
          key={r.id}
          testId="raffle-card"
          dataName={r.title}
          title={
            <>
              {r.title}
              <div className="text-xs font-normal text-muted-foreground">{truncate(r.description, DESCRIPTION_PREVIEW)}</div>
            </>
          }
          badge={status(r)}
          actions={actions(r)}
        >
          <CardFact label={t("colPrice")}>{formatUsd(r.price, locale)}</CardFact>
          <CardFact label={t("colSold")}>
            {formatCount(r.ticketsSold, locale)} / {formatCount(r.maxTickets, locale)}
          </CardFact>
          <CardFact label={t("colDraw")}>{draw(r)}</CardFact>
        </CatalogCard>
      ))}
      after={
        <>
          {editing && <RaffleDialog raffle={editing === "new" ? null : editing} draws={draws} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
          {drawing && <DrawDialog raffle={drawing} onClose={() => setDrawing(null)} />}
          {deleting && (
            <ConfirmDeleteDialog
              title={t("deleteTitle")}
              question={t("deleteQuestion")}
              confirmLabel={t("deleteConfirm")}
              onConfirm={() => remove(deleting)}
              onClose={() => setDeleting(null)}
            >
              <p className="rounded-md bg-muted p-3 text-sm font-medium">{deleting.title}</p>
            </ConfirmDeleteDialog>
          )}
        </>
      }
    >
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("colTitle")}</TableHead>
                <TableHead className="text-right">{t("colPrice")}</TableHead>
                <TableHead className="text-right">{t("colMax")}</TableHead>
                {/* 'Apartados o vendidos' wraps rather than push the actions out of a 1440 px screen. */}
                <TableHead className="min-w-24 whitespace-normal text-right">{t("colSold")}</TableHead>
                <TableHead>{t("colDraw")}</TableHead>
                <TableHead>{t("colStatus")}</TableHead>
                <TableHead className="text-right">{t("colActions")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {raffles?.map((r) => (
                <TableRow key={r.id} data-testid="raffle-row" data-title={r.title}>
                  <TableCell className="min-w-56">
                    <div className="font-medium">{r.title}</div>
                    <div className="text-xs text-muted-foreground" title={r.description}>
                      {truncate(r.description, DESCRIPTION_PREVIEW)}
                    </div>
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">{formatUsd(r.price, locale)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(r.maxTickets, locale)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(r.ticketsSold, locale)}</TableCell>
                  <TableCell className="whitespace-nowrap">{draw(r)}</TableCell>
                  <TableCell>{status(r)}</TableCell>
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
