import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { CalendarDays, Ticket } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import type { Raffle } from "@/lib/api/types";
import { formatDate, formatNumber, formatUsd, soldPercent } from "@/lib/format";
import { salesClosed } from "@/lib/sales";
import { LinkPending } from "./link-pending";

/**
 * A raffle as a card (home and /sorteos). `showActive` adds the list page's 'active' label.
 * A plain (not async) server component, so it also renders in component tests.
 */
export function RaffleCard({ raffle, showActive = false, priority = false }: { raffle: Raffle; showActive?: boolean; priority?: boolean }) {
  const t = useTranslations("common");
  const locale = useLocale();
  const percent = soldPercent(raffle.ticketsSold, raffle.maxTickets);
  const href = `/sorteo/${raffle.id}`;
  // The server's word when it answered (the list is read on every request).
  const closed = salesClosed(raffle);
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm transition-shadow hover:shadow-md">
      <div className="relative aspect-[16/10] overflow-hidden bg-muted">
        <img
          src={raffle.image}
          alt=""
          width={640}
          height={400}
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : "auto"}
          decoding="async"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
        />
        {closed ? (
          <Badge variant="destructive" className="absolute left-3 top-3 shadow" data-testid="raffle-card-closed">
            {t("salesClosed")}
          </Badge>
        ) : (
          showActive && (
            <Badge variant="success" className="absolute left-3 top-3 shadow">
              {t("active")}
            </Badge>
          )
        )}
        <span className="absolute bottom-3 right-3 rounded-md bg-background/95 px-2.5 py-1 text-sm font-bold shadow">
          {formatUsd(raffle.price, locale)}
          <span className="sr-only"> {t("perTicket")}</span>
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <h3 className="text-lg font-semibold leading-snug">
          <Link href={href} className="outline-none after:absolute after:inset-0 focus-visible:underline">
            {raffle.title}
            <LinkPending />
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-muted-foreground">{raffle.description}</p>
        <div className="mt-auto space-y-2">
          <div className="flex items-center justify-between text-sm">
            <span className="inline-flex items-center gap-1.5">
              <Ticket aria-hidden className="size-4 text-muted-foreground" />
              {t("ticketsSoldOf", { sold: formatNumber(raffle.ticketsSold, locale), max: formatNumber(raffle.maxTickets, locale) })}
            </span>
            <span className="font-medium">{t("soldPercent", { percent: formatNumber(percent, locale) })}</span>
          </div>
          <Progress value={percent} aria-label={t("soldProgress")} />
          <p className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
            <CalendarDays aria-hidden className="size-4" />
            {raffle.drawDate ? t("drawDate", { date: formatDate(raffle.drawDate, locale) }) : t("noDrawDate")}
          </p>
        </div>
        {/* The whole card is the link (the title's stretched link); this only looks like a button. */}
        <span aria-hidden className={buttonVariants({ size: "lg", className: "mt-1 w-full" })}>
          {showActive && !closed ? t("participateNow") : t("viewRaffle")}
        </span>
      </div>
    </article>
  );
}
