"use client";

import { useLocale, useTranslations } from "next-intl";
import { ExternalLink } from "lucide-react";
import { quicknetRoundTime, resultBlocker } from "@/lib/admin/draw";
import type { AdminDrawView, AdminPrize } from "@/lib/api/types";
import { DEFAULT_LOTTERY_TIME_ZONE, zoneCity } from "@/lib/draw/display";
import { formatDate, formatDateTime } from "@/lib/format";
import { ClaimSection } from "./claim-section";
import { DrawOutcome } from "./draw-outcome";
import { ResultForm } from "./result-form";
import type { DrawWrite } from "./use-draw-write";

/**
 * One prize in the draw's order: what it is and the result it is drawn from; then recording that
 * result (once the ledger is frozen and the prizes before it are drawn), the outcome and winner,
 * and the claim until delivery.
 */
export function PrizeCard({
  raffleId,
  view,
  prize,
  write,
  onViewPurchase,
}: {
  raffleId: number;
  view: AdminDrawView;
  prize: AdminPrize;
  write: DrawWrite;
  onViewPurchase: (purchaseId: number) => void;
}) {
  const t = useTranslations("admin.draw.results");
  const tp = useTranslations("admin.draw.prizes");
  const locale = useLocale();
  const { source } = prize;
  return (
    <article className="grid min-w-0 gap-4 rounded-lg border p-3 sm:p-4" aria-labelledby={`prize-${prize.position}`} data-testid={`prize-card-${prize.position}`}>
      <header className="flex gap-3">
        {prize.image && <img src={prize.image} alt="" className="size-16 shrink-0 rounded-md border object-cover" loading="lazy" />}
        <div className="grid min-w-0 gap-1">
          <h4 id={`prize-${prize.position}`} className="font-semibold">
            <span className="text-muted-foreground">{tp("prize", { position: prize.position })}:</span> {prize.title}
          </h4>
          {prize.description && <p className="whitespace-pre-line break-words text-sm text-muted-foreground">{prize.description}</p>}
          <p className="text-sm" data-testid={`prize-source-${prize.position}`}>
            {source.kind === "lottery" ? (
              <>
                {t("lotterySource", { name: source.lotteryName, date: formatDate(source.drawDate, locale), time: source.drawTime || "00:00", zone: zoneCity(source.timeZone || DEFAULT_LOTTERY_TIME_ZONE) })} ·{" "}
                <a href={source.sourceUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                  {t("sourceLink")}
                  <ExternalLink aria-hidden className="size-3.5" />
                </a>
              </>
            ) : (
              t("beaconSource", { round: String(source.round), date: formatDateTime(quicknetRoundTime(source.round), locale) })
            )}
          </p>
        </div>
      </header>
      {prize.draw ? (
        <DrawOutcome position={prize.position} draw={prize.draw} maxTickets={view.maxTickets} onViewPurchase={onViewPurchase} />
      ) : (
        <PendingResult raffleId={raffleId} view={view} prize={prize} write={write} />
      )}
      {prize.claim && <ClaimSection raffleId={raffleId} prize={prize} claim={prize.claim} write={write} />}
    </article>
  );
}

/** The result form of a prize not drawn yet, disabled with the reason while it cannot be recorded. */
function PendingResult({ raffleId, view, prize, write }: { raffleId: number; view: AdminDrawView; prize: AdminPrize; write: DrawWrite }) {
  const t = useTranslations("admin.draw.results");
  const blocker = resultBlocker(view, prize);
  return (
    <div className="grid gap-3">
      {blocker && (
        <p className="rounded-md bg-muted p-3 text-sm" data-testid={`result-blocked-${prize.position}`}>
          {blocker.reason === "notFrozen" ? t("notFrozen") : t("earlierNotDrawn", { position: blocker.position })}
        </p>
      )}
      <ResultForm raffleId={raffleId} prize={prize} digitsUsed={view.digitsUsed} disabled={blocker !== null} write={write} />
    </div>
  );
}
