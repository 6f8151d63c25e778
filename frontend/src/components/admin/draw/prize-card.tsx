"use client";

import { useLocale, useTranslations } from "next-intl";
import { ExternalLink } from "lucide-react";
import { pendingStep, quicknetRoundTime, resultBlocker } from "@/lib/admin/draw";
import type { AdminDrawView, AdminPrize } from "@/lib/api/types";
import { digitsRead } from "@/lib/draw/chain";
import { parseRule } from "@/lib/draw/fair";
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
          {source.kind === "lottery" && (
            <ul className="grid gap-0.5 text-xs text-muted-foreground" data-testid={`prize-chain-${prize.position}`}>
              {source.deadline && <li>{t("deadline", { date: formatDateTime(source.deadline, locale) })}</li>}
              {source.fallbackRound != null && (
                <li data-testid={`prize-fallback-round-${prize.position}`}>
                  {t("fallbackRound", { round: String(source.fallbackRound), date: formatDateTime(quicknetRoundTime(source.fallbackRound), locale) })}
                </li>
              )}
            </ul>
          )}
        </div>
      </header>
      {/* A drawn prize's deciding result is in its outcome: the list says more only when the chain went past its own source. */}
      {(prize.draw ? prize.results.length > 1 : prize.results.length > 0) && <RecordedResults prize={prize} />}
      {prize.draw ? (
        <DrawOutcome position={prize.position} draw={prize.draw} maxTickets={view.maxTickets} onViewPurchase={onViewPurchase} />
      ) : (
        <PendingResult raffleId={raffleId} view={view} prize={prize} write={write} />
      )}
      {prize.claim && <ClaimSection raffleId={raffleId} prize={prize} claim={prize.claim} write={write} />}
    </article>
  );
}

/** What each source of the prize's chain gave so far, in chain order. */
function RecordedResults({ prize }: { prize: AdminPrize }) {
  const t = useTranslations("admin.draw.results");
  const locale = useLocale();
  const results = [...prize.results].sort((a, b) => a.source - b.source);
  return (
    <section className="grid gap-1 text-sm" aria-label={t("recordedResults")} data-testid={`recorded-results-${prize.position}`}>
      <h5 className="font-medium">{t("recordedResults")}</h5>
      <ul className="grid gap-1">
        {results.map(({ source, result, recordedAt }) => (
          <li key={source} className="min-w-0 break-words" data-testid={`recorded-result-${prize.position}-${source}`}>
            <span className="text-muted-foreground">{t("recordedSource", { source: String(source) })}:</span>{" "}
            {result.kind === "lottery" ? (
              <span className="font-mono">{t("recordedLottery", { result: result.result, date: formatDate(result.publishedOn, locale) })}</span>
            ) : (
              <span className="font-mono">{t("recordedRound", { round: String(result.round) })}</span>
            )}{" "}
            <span className="text-xs text-muted-foreground">({t("recordedAt", { date: formatDateTime(recordedAt, locale) })})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A prize not drawn yet: its own source's result form; its fallback round's once the lottery
 * named no number in play or missed its deadline; or, with its results recorded, that it waits
 * for the earlier prizes (prizes settle in order). Disabled with the reason until the freeze.
 */
function PendingResult({ raffleId, view, prize, write }: { raffleId: number; view: AdminDrawView; prize: AdminPrize; write: DrawWrite }) {
  const t = useTranslations("admin.draw.results");
  const blocker = resultBlocker(view);
  const step = pendingStep(view, prize);
  const rule = parseRule(view.rule) ?? "rifa-among-sold-v2";
  if (step.kind === "earlier" && !blocker) {
    return (
      <p className="rounded-md bg-muted p-3 text-sm" data-testid={`result-waiting-${prize.position}`}>
        {t("awaitingEarlier")}
      </p>
    );
  }
  return (
    <div className="grid gap-3">
      {blocker && (
        <p className="rounded-md bg-muted p-3 text-sm" data-testid={`result-blocked-${prize.position}`}>
          {t("notFrozen")}
        </p>
      )}
      {step.kind === "fallbackRound" && (
        <p className="rounded-md border border-warning bg-warning/10 p-3 text-sm" data-testid={`result-fallback-${prize.position}`}>
          {t("awaitingFallback", { round: String(step.round) })}
        </p>
      )}
      <ResultForm
        key={step.kind}
        raffleId={raffleId}
        prize={prize}
        digitsUsed={digitsRead(prize.source, rule, view.maxTickets) || view.digitsUsed}
        maxTickets={view.maxTickets}
        fallbackRound={step.kind === "fallbackRound" ? step.round : undefined}
        disabled={blocker !== null}
        write={write}
      />
    </div>
  );
}
