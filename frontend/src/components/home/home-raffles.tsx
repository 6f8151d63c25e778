import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { ArrowRight, Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button";
import { RaffleCard } from "@/components/raffle/raffle-card";
import { RafflesUnavailable } from "@/components/raffle/raffles-unavailable";
import type { Raffle } from "@/lib/api/types";
import { formatNumber } from "@/lib/format";

/** Raffle cards on the home page (SPEC §2 "Home"): at most 3. */
export const HOME_CARDS = 3;

/**
 * The home page's raffle section: the first three raffles as cards, a see-all button to
 * /sorteos with the total count when there are more, or the upcoming-raffles message; `null`
 * when the API did not answer.
 */
export function HomeRaffles({ raffles }: { raffles: Raffle[] | null }) {
  const t = useTranslations("homeRaffles");
  const locale = useLocale();
  const shown = raffles?.slice(0, HOME_CARDS) ?? [];
  return (
    <section id="sorteos" aria-labelledby="raffles-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
      <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="raffles-title" className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h2>
          <p className="mt-2 text-muted-foreground">{t("subtitle")}</p>
        </div>
        {raffles && raffles.length > HOME_CARDS && (
          <Button asChild variant="outline">
            <Link href="/sorteos">
              {t("seeAll", { count: formatNumber(raffles.length, locale) })}
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        )}
      </div>
      {raffles === null ? (
        <RafflesUnavailable href="/#sorteos" />
      ) : shown.length === 0 ? (
        <div className="rounded-xl border border-dashed p-10 text-center" data-testid="home-raffles-empty">
          <Sparkles aria-hidden className="mx-auto mb-3 size-8 text-muted-foreground" />
          <p className="text-lg font-semibold">{t("emptyTitle")}</p>
          <p className="mx-auto mt-2 max-w-md text-muted-foreground">{t("emptyText")}</p>
        </div>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((raffle, i) => (
            <RaffleCard key={raffle.id} raffle={raffle} priority={i === 0} />
          ))}
        </div>
      )}
    </section>
  );
}
