import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { ExternalLink, FileText, Fingerprint, ShieldCheck, Trophy } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { getRaffleDraw } from "@/lib/api/server";
import type { PublicDraw, PublicDrawPrize } from "@/lib/api/types";
import { drawNumberLabel, drandRoundUrl, shortHash } from "@/lib/draw/display";
import { formatCount, formatDate } from "@/lib/format";
import { DrawRule } from "./draw-rule";
import { PrizeSourceText } from "./prize-source";
import { useCountryName, useStepText } from "./use-draw-text";

/**
 * "Premios y reglas del sorteo" on a raffle's page, read on the server. Without an answer (the
 * API failed, the raffle is not public) or without prizes, the page shows nothing of it rather
 * than failing: the sale goes on.
 */
export async function RaffleDrawSection({ raffleId }: { raffleId: number }) {
  const draw = await getRaffleDraw(raffleId);
  if (!draw || draw.prizes.length === 0) return null;
  return <RaffleDrawView draw={draw} />;
}

/** The prizes, the published rule with this raffle's figures, the commitment and each result. */
export function RaffleDrawView({ draw }: { draw: PublicDraw }) {
  const t = useTranslations("draw.section");
  const prizes = [...draw.prizes].sort((a, b) => a.position - b.position);
  return (
    <section id="premios" aria-labelledby="draw-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 pb-12" data-testid="raffle-draw">
      <div className="mb-6 max-w-2xl">
        <h2 id="draw-title" className="text-2xl font-bold tracking-tight">{t("title")}</h2>
        <p className="mt-2 text-muted-foreground">{t("subtitle")}</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1.4fr_1fr] lg:items-start">
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2" aria-label={t("prizes")}>
          {prizes.map((prize) => (
            <PrizeCard key={prize.id} raffleId={draw.raffleId} prize={prize} maxTickets={draw.maxTickets} />
          ))}
        </ol>
        <div className="space-y-4">
          <div className="rounded-xl border bg-card p-5 shadow-sm">
            <h3 className="mb-3 flex items-center gap-2 font-semibold">
              <ShieldCheck aria-hidden className="size-5 text-success-strong" />
              {t("ruleTitle")}
            </h3>
            <DrawRule maxTickets={draw.maxTickets} digits={draw.digitsUsed} sources={prizes.map((p) => p.source)} rule={draw.rule} />
          </div>
          <CommitmentBox raffleId={draw.raffleId} commitment={draw.commitment} />
        </div>
      </div>
    </section>
  );
}

function PrizeCard({ raffleId, prize, maxTickets }: { raffleId: number; prize: PublicDrawPrize; maxTickets: number }) {
  const t = useTranslations("draw.section");
  const locale = useLocale();
  const country = useCountryName();
  const stepText = useStepText(maxTickets);
  const { draw } = prize;
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm" data-testid={`prize-${prize.position}`}>
      {prize.image && <img src={prize.image} alt={prize.title} width={640} height={400} loading="lazy" className="aspect-[16/10] w-full object-cover" />}
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="space-y-1">
          <Badge variant="secondary">{t("prize", { position: prize.position })}</Badge>
          <h3 className="text-lg font-semibold leading-snug">{prize.title}</h3>
          {prize.description && <p className="whitespace-pre-line text-sm text-muted-foreground">{prize.description}</p>}
        </div>
        <div className="text-sm">
          <p className="text-muted-foreground">{t("source")}</p>
          <PrizeSourceText source={prize.source} />
        </div>
        {draw ? (
          <div className="mt-auto space-y-3 rounded-lg bg-muted/60 p-3 text-sm" data-testid={`prize-result-${prize.position}`}>
            <div>
              <p className="text-muted-foreground">{t("result")}</p>
              {draw.result.kind === "lottery" ? (
                <p>
                  <span className="font-mono font-semibold">{draw.result.result}</span>
                  {" · "}
                  {t("publishedOn", { date: formatDate(draw.result.publishedOn, locale) })}
                  {" · "}
                  <a href={draw.result.officialUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
                    {t("officialResult")}
                    <ExternalLink aria-hidden className="size-3.5" />
                  </a>
                </p>
              ) : (
                <p>
                  {t("beaconResult", { round: String(draw.result.round) })}
                  {" · "}
                  <a href={drandRoundUrl(draw.result.round)} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
                    {t("drandRecord")}
                    <ExternalLink aria-hidden className="size-3.5" />
                  </a>
                </p>
              )}
            </div>
            {draw.winningNumber == null ? (
              <p className="font-medium">{t("noWinner")}</p>
            ) : (
              <div className="flex items-center gap-3">
                <Trophy aria-hidden className="size-6 shrink-0 text-warning-strong" />
                <div>
                  <p>
                    {t("winningNumber")}{" "}
                    <span className="rounded bg-primary px-1.5 py-0.5 font-mono font-bold text-primary-foreground" data-testid={`winning-number-${prize.position}`}>
                      {drawNumberLabel(draw.winningNumber, maxTickets)}
                    </span>
                  </p>
                  {draw.winner && <p className="font-semibold">{t("winner", { name: draw.winner.displayName, country: country(draw.winner.country) })}</p>}
                </div>
              </div>
            )}
            <details>
              <summary className="cursor-pointer font-medium text-primary underline-offset-4 hover:underline">{t("howChosen")}</summary>
              <ol className="mt-2 list-decimal space-y-1 pl-5 text-muted-foreground">
                {draw.steps.map((step, i) => (
                  <li key={i}>{stepText(step)}</li>
                ))}
              </ol>
            </details>
            {/* The PDF is in the language the browser asks for, as every API answer. */}
            <a
              href={`/api/raffles/${raffleId}/prizes/${prize.id}/certificate`}
              className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
              data-testid={`certificate-${prize.position}`}
            >
              <FileText aria-hidden className="size-4" />
              {t("certificate")}
            </a>
          </div>
        ) : (
          <p className="mt-auto text-sm text-muted-foreground">{t("notDrawn")}</p>
        )}
      </div>
    </li>
  );
}

/** The commitment once frozen (the fingerprint a buyer can check), or when it will be. */
function CommitmentBox({ raffleId, commitment }: { raffleId: number; commitment: PublicDraw["commitment"] }) {
  const t = useTranslations("draw.section");
  const locale = useLocale();
  if (!commitment) {
    return (
      <div className="rounded-xl border border-dashed p-5 text-sm text-muted-foreground" data-testid="draw-not-frozen">
        {t("notFrozen")}
      </div>
    );
  }
  return (
    <div className="space-y-3 rounded-xl border bg-card p-5 text-sm shadow-sm" data-testid="draw-commitment">
      <h3 className="flex items-center gap-2 font-semibold">
        <Fingerprint aria-hidden className="size-5 text-primary" />
        {t("frozenTitle")}
      </h3>
      <p>{t("frozenText", { date: formatDate(commitment.frozenAt, locale), count: formatCount(commitment.size, locale) })}</p>
      <details>
        <summary className="cursor-pointer">
          {t("fingerprint")} <code className="font-mono">{shortHash(commitment.root)}</code>
        </summary>
        <code className="mt-2 block break-all rounded bg-muted p-2 font-mono text-xs" data-testid="draw-root">{commitment.root}</code>
      </details>
      <Button asChild variant="outline" className="w-full">
        <Link href={`/sorteo/${raffleId}/verificacion`}>
          <ShieldCheck aria-hidden />
          {t("verifyLink")}
        </Link>
      </Button>
    </div>
  );
}
