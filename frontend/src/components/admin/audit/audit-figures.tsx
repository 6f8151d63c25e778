"use client";

import { useLocale, useTranslations } from "next-intl";
import { Loader2 } from "lucide-react";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { busiestDays, perDaySeries, waitParts, type DayRange } from "@/lib/admin/audit-figures";
import { errorMessage } from "@/lib/api/fetcher";
import type { DayDecisions, PersonFigures } from "@/lib/api/types";
import { formatCalendarDay, formatCount } from "@/lib/format";
import { useAuditFigures } from "@/lib/swr/use-audit";
import { DateField } from "../date-field";
import { useToday } from "../use-today";
import { ListStates } from "../list-states";

/** A median wait in words ("1 h 5 min"); null when none of the decisions had a proof (the row shows "—"). */
function useWaitText(): (seconds: number | null | undefined) => string | null {
  const t = useTranslations("admin.audit.figures.duration");
  return (seconds) => {
    if (seconds == null) return null;
    const parts = waitParts(seconds);
    switch (parts.unit) {
      case "seconds":
        return t("seconds", { seconds: parts.seconds });
      case "minutes":
        return t("minutes", { minutes: parts.minutes });
      case "hours":
        return t("hours", { hours: parts.hours, minutes: parts.minutes });
      case "days":
        return t("days", { days: parts.days, hours: parts.hours });
    }
  };
}

/**
 * A person's decisions over every day of the range, one bar each over a faint slot (so quiet days
 * still show), drawn to the width there is: a year's bars stay on one line on a phone. Each day
 * names its date and count when hovered; read aloud, the busiest days below say the same.
 */
function DayBars({ series }: { series: DayDecisions[] }) {
  const t = useTranslations("admin.audit.figures");
  const locale = useLocale();
  const most = Math.max(1, ...series.map((d) => d.decisions));
  return (
    <svg viewBox={`0 0 ${series.length} 1`} preserveAspectRatio="none" className="block h-10 w-full border-b" aria-hidden data-testid="figures-bars">
      {series.map((d, i) => {
        const h = d.decisions / most;
        return (
          <g key={d.date} data-day={d.date} data-decisions={d.decisions}>
            <title>{t("dayTitle", { day: formatCalendarDay(d.date, locale, "short"), count: d.decisions })}</title>
            <rect x={i + 0.1} y={0} width={0.8} height={1} className="fill-muted" />
            <rect x={i + 0.1} y={1 - h} width={0.8} height={h} className="fill-primary" data-testid="figures-bar" />
          </g>
        );
      })}
    </svg>
  );
}

function Person({ person, range }: { person: PersonFigures; range: DayRange }) {
  const t = useTranslations("admin.audit.figures");
  const locale = useLocale();
  const waitText = useWaitText();
  const series = perDaySeries(person.perDay, range);
  const day = (date: string) => formatCalendarDay(date, locale, "short");
  const wait = waitText(person.medianProofToDecisionSeconds);
  const busiest = busiestDays(series);
  return (
    <li className="grid gap-3 p-4 lg:grid-cols-[minmax(14rem,20rem)_1fr] lg:gap-6" data-testid="figures-person" data-actor={person.actor}>
      <div className="grid min-w-0 content-start gap-2">
        <p className="wrap-anywhere font-medium">{person.actor}</p>
        <dl className="flex flex-wrap gap-x-6 gap-y-2">
          <div className="grid">
            <dt className="text-xs text-muted-foreground">{t("decisions")}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="figures-decisions">
              {formatCount(person.decisions, locale)}
            </dd>
          </div>
          <div className="grid">
            <dt className="text-xs text-muted-foreground">{t("wait")}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="figures-wait">
              {wait ?? (
                <span title={t("noWait")}>
                  <span aria-hidden>—</span>
                  <span className="sr-only">{t("noWait")}</span>
                </span>
              )}
            </dd>
          </div>
        </dl>
      </div>
      <div className="grid min-w-0 content-start gap-1">
        <p className="text-xs text-muted-foreground">{t("perDay")}</p>
        <DayBars series={series} />
        {series.length > 1 && (
          <div className="flex justify-between gap-2 text-xs text-muted-foreground" aria-hidden>
            <span>{day(series[0]!.date)}</span>
            <span>{day(series[series.length - 1]!.date)}</span>
          </div>
        )}
        {busiest.length > 0 && (
          <p className="text-sm" data-testid="figures-busiest">
            {t("busiest", { days: busiest.map((d) => t("dayCount", { day: day(d.date), count: formatCount(d.decisions, locale) })).join(" · ") })}
          </p>
        )}
      </div>
    </li>
  );
}

/**
 * 'Cifras por persona': who decided purchases between two days (the last 30 at first), how many,
 * on which days, and how long proofs waited for them. The range lives in the tab, so it survives
 * a look at the entries. Days and the offset are the browser's, as the sales chart's.
 */
export function AuditFigures({ range, onRangeChange }: { range: DayRange; onRangeChange: (next: DayRange) => void }) {
  const t = useTranslations("admin.audit.figures");
  const ta = useTranslations("admin.audit");
  const { offset } = useToday();
  const { data, error, isLoading, isValidating, mutate } = useAuditFigures(range, offset);
  const asked = range.from !== "" && range.to !== "";
  const day = (key: "from" | "to") => (
    <div className="grid gap-1.5">
      <Label htmlFor={`figures-${key}`}>{t(key)}</Label>
      <DateField id={`figures-${key}`} value={range[key]} onChange={(value) => onRangeChange({ ...range, [key]: value })} />
    </div>
  );

  return (
    <Card className="gap-0 py-0" data-testid="audit-figures">
      <div className="grid gap-3 border-b p-4">
        <div className="min-w-0">
          <h3 className="font-semibold">{t("title")}</h3>
          <p className="text-sm text-muted-foreground">{t("subtitle")}</p>
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:max-w-xl">
          {day("from")}
          {day("to")}
        </div>
      </div>
      {data && !error && (
        <div className="flex items-center gap-3 px-4 py-2 text-sm text-muted-foreground" aria-live="polite">
          <span data-testid="figures-shown">{t("people", { count: data.length })}</span>
          {isValidating && <Loader2 aria-hidden className="size-4 animate-spin" />}
        </div>
      )}

      {!asked ? (
        <p className="border-t p-8 text-center text-muted-foreground" data-testid="figures-pick">
          {t("pickDays")}
        </p>
      ) : (
        <ListStates
          // Over an earlier answer too: that one was for other days.
          failed={Boolean(error) && !isValidating}
          loading={isLoading && !data}
          empty={data?.length === 0}
          errorText={t("loadError")}
          detail={errorMessage(error, "")}
          retryText={ta("retry")}
          onRetry={() => void mutate()}
          emptyText={t("empty")}
          testId="figures"
          bordered
        >
          {data && (
            <ul className="divide-y border-t" data-testid="figures-people">
              {data.map((person) => (
                <Person key={person.actorId ?? person.actor} person={person} range={range} />
              ))}
            </ul>
          )}
        </ListStates>
      )}
    </Card>
  );
}
