"use client";

import { useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { Dices, Hourglass, Loader2, Lock, MinusCircle, Trophy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { PreviewedPrize } from "@/lib/api/types";
import { drawNumberLabel } from "@/lib/draw/display";
import { formatDate } from "@/lib/format";

/**
 * The confirmation before a lottery result is recorded: what the server says it would decide
 * (each prize it settles, in order, which may include later prizes whose results were recorded
 * first), and that a recorded result cannot be changed. Nothing is recorded until "Confirm".
 */
export function ResultConfirm({
  result,
  publishedOn,
  prizes,
  maxTickets,
  onConfirm,
  onClose,
}: {
  result: string;
  publishedOn: string;
  prizes: PreviewedPrize[];
  maxTickets: number;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const t = useTranslations("admin.draw.results.confirm");
  const tc = useTranslations("admin.common");
  const locale = useLocale();
  const [pending, setPending] = useState(false);

  async function confirm() {
    setPending(true);
    // Closed either way: on failure the toast says why and the form marks the field the server refused.
    await onConfirm();
    onClose();
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-lg" closeLabel={tc("close")} data-testid="result-confirm-dialog">
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription className="break-words">{t("intro", { result, date: formatDate(publishedOn, locale) })}</DialogDescription>
        </DialogHeader>
        {prizes.length > 0 ? (
          <ul className="grid gap-2" data-testid="result-preview">
            {prizes.map((prize) => (
              <PreviewLine key={prize.prizeId} prize={prize} maxTickets={maxTickets} />
            ))}
          </ul>
        ) : (
          <p className="rounded-md bg-muted p-3 text-sm" data-testid="result-preview-none">
            {t("none")}
          </p>
        )}
        <p className="flex items-start gap-2 rounded-md border border-warning bg-warning/10 p-3 text-sm" data-testid="result-confirm-final">
          <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
          {t("final")}
        </p>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending} data-testid="cancel-result">
            {t("back")}
          </Button>
          <Button type="button" onClick={confirm} disabled={pending} data-testid="confirm-result">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Dices aria-hidden />}
            {pending ? t("recording") : t("confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** "Premio 1 «Moto»: gana el 0046 (María G.)", or that it is left without a winner, or what it waits for. */
function PreviewLine({ prize, maxTickets }: { prize: PreviewedPrize; maxTickets: number }) {
  const t = useTranslations("admin.draw.results.confirm");
  const base = { position: prize.position, title: prize.title };
  const [Icon, text] =
    prize.outcome === "winner"
      ? [
          Trophy,
          t.rich("winner", {
            ...base,
            number: drawNumberLabel(prize.winningNumber, maxTickets),
            name: prize.displayName,
            n: (chunks) => <span className="font-mono font-semibold">{chunks}</span>,
          }),
        ]
      : prize.outcome === "noWinner"
        ? [MinusCircle, t("noWinner", base)]
        : [Hourglass, prize.source === 0 ? t("awaitingLottery", base) : t("awaitingFallback", base)];
  return (
    <li className="flex items-start gap-2 rounded-md border p-3 text-sm" data-testid={`result-preview-${prize.position}`} data-outcome={prize.outcome}>
      <Icon aria-hidden className={prize.outcome === "winner" ? "mt-0.5 size-4 shrink-0 text-success" : "mt-0.5 size-4 shrink-0 text-muted-foreground"} />
      <span className="min-w-0 break-words">{text}</span>
    </li>
  );
}
