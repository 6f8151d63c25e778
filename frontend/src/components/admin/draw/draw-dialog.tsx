"use client";

import { useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Loader2, Lock, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { prizesEditable, prizesInOrder } from "@/lib/admin/draw";
import type { AdminDrawView, Raffle } from "@/lib/api/types";
import { ticketWidth } from "@/lib/format";
import { useAdminDraw } from "@/lib/swr/use-admin-draw";
import { PurchaseDetailDialog } from "../purchase-detail-dialog";
import { FreezeSection } from "./freeze-section";
import { PrizeCard } from "./prize-card";
import { PrizesEditor } from "./prizes-editor";
import { RuleField } from "./rule-field";
import { useDrawWrite, type DrawWrite } from "./use-draw-write";

/**
 * A raffle's verifiable draw (decision 0020) in the order it happens: the prizes and the result
 * each is drawn from, closing the list of sold numbers (the freeze), then each prize's result,
 * winner and delivery.
 */
export function DrawDialog({ raffle, onClose }: { raffle: Pick<Raffle, "id" | "title">; onClose: () => void }) {
  const t = useTranslations("admin.draw");
  const tc = useTranslations("admin.common");
  const { data: view, error, mutate } = useAdminDraw(raffle.id);
  const write = useDrawWrite(mutate);

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-4xl" closeLabel={tc("close")} data-testid="draw-dialog">
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("description", { title: raffle.title })}</DialogDescription>
        </DialogHeader>
        {view ? (
          <DrawSections raffleId={raffle.id} view={view} write={write} />
        ) : error ? (
          <div className="grid justify-items-center gap-3 py-8 text-center" role="alert" data-testid="draw-load-error">
            <p>{t("loadError")}</p>
            <Button type="button" variant="outline" onClick={() => void mutate()}>
              <RotateCw aria-hidden />
              {tc("retry")}
            </Button>
          </div>
        ) : (
          <p role="status" className="flex items-center justify-center gap-2 py-8 text-muted-foreground">
            <Loader2 aria-hidden className="size-4 animate-spin" />
            {t("loading")}
          </p>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <section className="grid min-w-0 gap-3" aria-labelledby={id} data-testid={id}>
      <div className="grid gap-1">
        <h3 id={id} className="text-base font-semibold">
          {title}
        </h3>
        {intro && <p className="text-sm text-muted-foreground">{intro}</p>}
      </div>
      {children}
    </section>
  );
}

function DrawSections({ raffleId, view, write }: { raffleId: number; view: AdminDrawView; write: DrawWrite }) {
  const t = useTranslations("admin.draw");
  // The winner's purchase, opened over this dialog.
  const [purchaseId, setPurchaseId] = useState<number | null>(null);
  const prizes = prizesInOrder(view);
  return (
    <div className="grid min-w-0 gap-8">
      <Section id="draw-prizes" title={t("prizes.title")} intro={t("prizes.intro")}>
        {prizesEditable(view) ? (
          <PrizesEditor raffleId={raffleId} view={view} write={write} />
        ) : (
          <div className="grid gap-4">
            <p role="note" className="flex items-start gap-2 rounded-md border border-warning bg-warning/10 p-3 text-sm" data-testid="prizes-locked">
              <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
              {view.rulesLocked ? t("prizes.locked") : t("prizes.frozen")}
            </p>
            <RuleField value={view.commitment?.rule || view.rule} disabled note={view.rulesLocked ? t("prizes.ruleLocked") : undefined} />
          </div>
        )}
      </Section>
      <Section id="draw-freeze" title={t("freeze.title")}>
        <FreezeSection raffleId={raffleId} view={view} write={write} />
      </Section>
      <Section id="draw-results" title={t("results.title")}>
        {prizes.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("results.empty")}</p>
        ) : (
          <ol className="grid gap-4">
            {prizes.map((prize) => (
              <li key={prize.id} className="min-w-0">
                <PrizeCard raffleId={raffleId} view={view} prize={prize} write={write} onViewPurchase={setPurchaseId} />
              </li>
            ))}
          </ol>
        )}
      </Section>
      {purchaseId !== null && (
        <PurchaseDetailDialog
          purchaseId={purchaseId}
          ticketWidth={() => ticketWidth(view.maxTickets)}
          onClose={() => setPurchaseId(null)}
          // A winner's purchase is approved: the dialog offers neither a decision nor a reopen.
          onDecide={() => setPurchaseId(null)}
          onReopen={() => setPurchaseId(null)}
        />
      )}
    </div>
  );
}
