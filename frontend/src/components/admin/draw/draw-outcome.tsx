"use client";

import { useLocale, useTranslations } from "next-intl";
import { ExternalLink, Trophy } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { AdminDrawWinner, AdminPrizeDraw, DrawStep } from "@/lib/api/types";
import { drawNumberLabel } from "@/lib/draw/display";
import { formatCount, formatDate, formatDateTime } from "@/lib/format";

function Fact({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

/**
 * A drawn prize: the result it was drawn with, the number the result named, the rule's steps in
 * words, the winning number (written as the site writes the raffle's tickets) and the winner's
 * contact.
 */
export function DrawOutcome({
  position,
  draw,
  maxTickets,
  onViewPurchase,
}: {
  position: number;
  draw: AdminPrizeDraw;
  maxTickets: number;
  onViewPurchase: (purchaseId: number) => void;
}) {
  const t = useTranslations("admin.draw.results");
  const locale = useLocale();
  const label = (n: number) => drawNumberLabel(n, maxTickets);
  const stepText = useStepText(maxTickets);
  const { result } = draw;
  return (
    <div className="grid gap-4">
      <dl className="grid gap-3 sm:grid-cols-2">
        {result.kind === "lottery" ? (
          <Fact label={t("resultLabel")} wide>
            <span className="font-mono font-medium">{result.result}</span>, {t("publishedAt", { date: formatDate(result.publishedOn, locale) })} ·{" "}
            <a href={result.officialUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
              {t("officialLink")}
              <ExternalLink aria-hidden className="size-3.5" />
            </a>
          </Fact>
        ) : (
          <>
            <Fact label={t("resultLabel")}>{t("round", { round: String(result.round) })}</Fact>
            <Fact label={t("randomness")} wide>
              <code className="break-all font-mono text-xs">{result.randomness}</code>
            </Fact>
          </>
        )}
        <Fact label={t("drawnNumber")}>
          <span className="font-mono">{label(draw.drawnNumber)}</span>
        </Fact>
        <Fact label={t("winningNumber")}>
          <span className="font-mono text-2xl font-bold" data-testid={`winning-number-${position}`}>
            {draw.winningNumber == null ? t("noWinner") : label(draw.winningNumber)}
          </span>
        </Fact>
      </dl>
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">{t("steps")}</p>
        <ol className="grid list-decimal gap-1 pl-5 text-sm" data-testid={`draw-steps-${position}`}>
          {draw.steps.map((step, i) => (
            <li key={i} className="break-words [overflow-wrap:anywhere]">
              {stepText(step)}
            </li>
          ))}
        </ol>
        <p className="text-xs text-muted-foreground">{t("drawnAt", { date: formatDateTime(draw.drawnAt, locale) })}</p>
      </div>
      {draw.winner && <WinnerContact position={position} winner={draw.winner} onViewPurchase={onViewPurchase} />}
    </div>
  );
}

/** What the panel needs to reach the winner, and the way to their purchase. */
function WinnerContact({ position, winner, onViewPurchase }: { position: number; winner: AdminDrawWinner; onViewPurchase: (purchaseId: number) => void }) {
  const t = useTranslations("admin.draw.results");
  const td = useTranslations("admin.detail");
  const tCountry = useTranslations("purchase.countries");
  const country = tCountry.has(winner.country as never) ? tCountry(winner.country as never) : winner.country;
  return (
    <section className="grid gap-3 rounded-lg border border-success/40 bg-success/5 p-3" aria-labelledby={`winner-${position}`} data-testid={`winner-${position}`}>
      <h5 id={`winner-${position}`} className="flex items-center gap-2 font-semibold">
        <Trophy aria-hidden className="size-4" />
        {t("winner")}
      </h5>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Fact label={td("name")}>{winner.customerName}</Fact>
        <Fact label={t("publicName")}>{winner.displayName}</Fact>
        <Fact label={td("email")}>
          <a href={`mailto:${winner.customerEmail}`} className="text-primary underline-offset-4 hover:underline">
            {winner.customerEmail}
          </a>
        </Fact>
        <Fact label={td("phone")}>
          <a href={`tel:${winner.customerPhone}`} className="text-primary underline-offset-4 hover:underline">
            {winner.customerPhone}
          </a>
        </Fact>
        <Fact label={td("country")}>{country}</Fact>
        <Fact label={td("reference")}>
          <span className="font-mono">{winner.reference}</span>
        </Fact>
      </dl>
      <Button type="button" variant="outline" size="sm" className="w-full sm:w-fit" onClick={() => onViewPurchase(winner.purchaseId)} data-testid={`winner-purchase-${position}`}>
        {t("viewPurchase", { reference: winner.reference })}
      </Button>
    </section>
  );
}

/** One step of the rule as a sentence, its numbers written as the raffle's tickets ("0046"). */
function useStepText(maxTickets: number): (step: DrawStep) => string {
  const t = useTranslations("admin.draw.steps");
  const locale = useLocale();
  const n = (value: number) => drawNumberLabel(value, maxTickets);
  return (step) => {
    switch (step.step) {
      case "lastDigits":
        return t("lastDigits", { result: step.result, used: step.used, digits: step.digits, number: n(step.number) });
      case "beacon":
        return t("beacon", { round: String(step.round), randomness: step.randomnessHex, maxTickets: formatCount(maxTickets, locale), number: n(step.number) });
      case "notInRaffle":
        return t("notInRaffle", { number: n(step.number), first: n(1), last: n(step.maxTickets) });
      case "notSold":
        return t("notSold", { number: n(step.number), next: n(step.next) });
      case "alreadyWon":
        return t("alreadyWon", { number: n(step.number), next: n(step.next) });
      case "wrappedAround":
        return t("wrappedAround");
      case "wins":
        return t("wins", { number: n(step.number) });
      case "noWinner":
        return t("noWinner");
      case "digits":
        return t("digits", { result: step.result, used: step.used, digits: step.digits });
      case "beaconRandomness":
        return t("beaconRandomness", { round: String(step.round), randomness: step.randomnessHex });
      case "names":
        return t("names", { number: n(step.number) });
      case "outsideRaffle":
        return t("outsideRaffle", { number: n(step.number), first: n(1), last: n(step.maxTickets) });
      case "notSoldNextSource":
        return t("notSoldNextSource", { number: n(step.number) });
      case "alreadyWonNextSource":
        return t("alreadyWonNextSource", { number: n(step.number) });
      case "incompleteRound":
        return t("incompleteRound", { count: formatCount(step.count, locale) });
      case "inPlay":
        return t("inPlay", { count: step.count });
      case "place":
        return t("place", { count: formatCount(step.count, locale), remainder: formatCount(step.remainder, locale), number: n(step.number) });
      case "nextSource":
        return t("nextSource");
      case "rehashed":
        return t("rehashed", { randomness: step.randomnessHex });
      case "sourceLapsed":
        return t("sourceLapsed", { source: String(step.source), deadline: formatDate(step.deadline, locale, true) });
    }
  };
}
