"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { Pencil, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deleteRaffle } from "@/lib/api/admin";
import type { Raffle } from "@/lib/api/types";
import { formatCount, formatDate, formatUsd } from "@/lib/format";
import { RAFFLE_STATUSES } from "@/lib/validations/raffle";
import { useInvalidate } from "@/lib/swr/cache";
import { useAdminRaffles } from "@/lib/swr/use-raffles";
import { CardFact, CatalogCard, CatalogTab, removeWithToast } from "./catalog-tab";
import { ConfirmDeleteDialog } from "./confirm-dialog";

const RaffleDialog = dynamic(() => import("./raffle-dialog").then((m) => m.RaffleDialog), { ssr: false });

/** Description preview in the table (SPEC §9). */
export const DESCRIPTION_PREVIEW = 50;

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

const LABELLED = RAFFLE_STATUSES;

/** The raffles tab (SPEC §2 "Raffles tab"). */
export function RafflesTab() {
  const t = useTranslations("admin.raffles");
  const locale = useLocale();
  const { data: raffles, isLoading, error, mutate } = useAdminRaffles();
  const [editing, setEditing] = useState<Raffle | "new" | null>(null);
  const [deleting, setDeleting] = useState<Raffle | null>(null);
  const refresh = useInvalidate().raffles;

  const statusLabel = (status: string) => ((LABELLED as readonly string[]).includes(status) ? t(`statuses.${status as (typeof LABELLED)[number]}`) : status);

  /** Edit and delete; labels hidden (still named) where the table is tight. */
  const actions = (r: Raffle, labelClass?: string) => (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setEditing(r)} aria-label={t("editLabel", { title: r.title })}>
        <Pencil aria-hidden />
        <span className={labelClass}>{t("edit")}</span>
      </Button>
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
          badge={<Badge variant={r.status === "available" ? "success" : "secondary"}>{statusLabel(r.status)}</Badge>}
          actions={actions(r)}
        >
          <CardFact label={t("colPrice")}>{formatUsd(r.price, locale)}</CardFact>
          <CardFact label={t("colSold")}>
            {formatCount(r.ticketsSold, locale)} / {formatCount(r.maxTickets, locale)}
          </CardFact>
          <CardFact label={t("colDraw")}>{r.drawDate ? formatDate(r.drawDate, locale) : t("notDefined")}</CardFact>
        </CatalogCard>
      ))}
      after={
        <>
          {editing && <RaffleDialog raffle={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
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
                <TableHead className="text-right">{t("colSold")}</TableHead>
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
                  <TableCell className="whitespace-nowrap">{r.drawDate ? formatDate(r.drawDate, locale) : t("notDefined")}</TableCell>
                  <TableCell>
                    <Badge variant={r.status === "available" ? "success" : "secondary"}>{statusLabel(r.status)}</Badge>
                  </TableCell>
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
