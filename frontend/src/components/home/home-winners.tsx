import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { ShieldCheck, Trophy } from "lucide-react";
import { useCountryName } from "@/components/draw/use-draw-text";
import type { PublicWinner } from "@/lib/api/types";
import { drawNumberLabel } from "@/lib/draw/display";
import { formatDate } from "@/lib/format";

/**
 * The home's latest winners (GET /api/winners), each with the way to check its draw. Nothing at
 * all when there are none yet or the API failed: an empty "Ganadores" would read as nobody wins.
 */
export function HomeWinners({ winners }: { winners: readonly PublicWinner[] }) {
  const t = useTranslations("draw.winners");
  const locale = useLocale();
  const country = useCountryName();
  if (winners.length === 0) return null;
  return (
    <section id="ganadores" aria-labelledby="winners-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 pb-16">
      <div className="mb-8 max-w-2xl">
        <h2 id="winners-title" className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h2>
        <p className="mt-2 text-muted-foreground">{t("subtitle")}</p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {winners.map((w) => (
          <li key={`${w.raffleId}-${w.position}`} className="flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm" data-testid="winner-card">
            <div className="flex items-start gap-3">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-warning/20 text-warning-strong">
                <Trophy aria-hidden className="size-5" />
              </span>
              <div className="min-w-0">
                <h3 className="font-semibold leading-snug">{w.prizeTitle}</h3>
                <p className="text-sm text-muted-foreground">{w.raffleTitle}</p>
              </div>
            </div>
            <dl className="grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-muted-foreground">{t("number")}</dt>
                <dd className="font-mono font-bold" data-testid="winner-number">{drawNumberLabel(w.number, w.maxTickets)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("date")}</dt>
                <dd className="font-medium">{formatDate(w.drawnAt, locale)}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-muted-foreground">{t("winner")}</dt>
                <dd className="font-medium">{t("who", { name: w.displayName, country: country(w.country) })}</dd>
              </div>
            </dl>
            <Link href={`/sorteo/${w.raffleId}/verificacion`} className="mt-auto inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline">
              <ShieldCheck aria-hidden className="size-4" />
              {t("verify")}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
