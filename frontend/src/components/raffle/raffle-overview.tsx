import { useLocale, useTranslations } from "next-intl";
import { CalendarDays, Gift, Ticket } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Progress } from "@/components/ui/progress";
import type { Promotion, Raffle } from "@/lib/api/types";
import { formatDate, formatNumber, formatUsd, soldPercent } from "@/lib/format";

const statusVariant = (status: string) =>
  status === "available" ? "success" : status === "postponed" ? "warning" : status === "inactive" ? "secondary" : "destructive";

/** Image, title, status, price, dates, sales and promotions of a raffle (server or client). */
export function RaffleOverview({ raffle, promotions }: { raffle: Raffle; promotions: Promotion[] }) {
  const t = useTranslations("raffle");
  const tc = useTranslations("common");
  const locale = useLocale();
  const percent = soldPercent(raffle.ticketsSold, raffle.maxTickets);
  const statusLabel = tc.has(`statuses.${raffle.status as "available"}`) ? tc(`statuses.${raffle.status as "available"}`) : raffle.status;
  return (
    <div className="space-y-5">
      <div className="overflow-hidden rounded-xl border bg-muted">
        <img
          src={raffle.image}
          alt={raffle.title}
          width={960}
          height={600}
          fetchPriority="high"
          className="aspect-[16/10] w-full object-cover"
        />
      </div>
      <div className="space-y-3">
        <Badge variant={statusVariant(raffle.status)} data-testid="raffle-status">{statusLabel}</Badge>
        <h1 className="text-2xl font-extrabold tracking-tight text-balance sm:text-3xl">{raffle.title}</h1>
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm md:grid-cols-4 lg:grid-cols-2">
        <div className="rounded-lg border bg-card p-3">
          <dt className="text-muted-foreground">{t("price")}</dt>
          <dd className="text-lg font-bold" data-testid="raffle-price">{formatUsd(raffle.price, locale)}</dd>
        </div>
        <div className="rounded-lg border bg-card p-3">
          <dt className="flex items-center gap-1 text-muted-foreground"><CalendarDays aria-hidden className="size-3.5" />{t("drawDate")}</dt>
          <dd className="font-semibold" data-testid="raffle-draw-date">{raffle.drawDate ? formatDate(raffle.drawDate, locale) : tc("noDrawDate")}</dd>
        </div>
        <div className="rounded-lg border bg-card p-3">
          <dt className="flex items-center gap-1 text-muted-foreground"><Ticket aria-hidden className="size-3.5" />{t("sold")}</dt>
          <dd className="font-semibold" data-testid="raffle-sold">{formatNumber(raffle.ticketsSold, locale)}</dd>
        </div>
        <div className="rounded-lg border bg-card p-3">
          <dt className="text-muted-foreground">{t("available")}</dt>
          <dd className="font-semibold" data-testid="raffle-available">{formatNumber(raffle.ticketsAvailable, locale)}</dd>
        </div>
      </dl>
      <div className="space-y-1.5">
        <div className="flex justify-between text-sm">
          <span>{tc("ticketsSoldOf", { sold: formatNumber(raffle.ticketsSold, locale), max: formatNumber(raffle.maxTickets, locale) })}</span>
          <span className="font-medium" data-testid="raffle-sold-percent">{tc("soldPercent", { percent: formatNumber(percent, locale) })}</span>
        </div>
        <Progress value={percent} aria-label={tc("soldProgress")} />
      </div>
      <section aria-labelledby="description-title" className="space-y-2">
        <h2 id="description-title" className="text-lg font-semibold">{t("description")}</h2>
        <p className="whitespace-pre-line text-muted-foreground">{raffle.description}</p>
      </section>
      {promotions.length > 0 && (
        <section aria-labelledby="promotions-title" className="space-y-2">
          <h2 id="promotions-title" className="text-lg font-semibold">{t("promotions")}</h2>
          <ul className="space-y-2">
            {promotions.map((p) => (
              <li key={p.id} className="flex items-start gap-2 rounded-lg border border-success/40 bg-success/5 p-3 text-sm">
                <Gift aria-hidden className="mt-0.5 size-4 shrink-0 text-success-strong" />
                {p.description}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
