"use client";

import { useLayoutEffect, useRef, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { lastDays } from "@/lib/admin/dates";
import { formatCalendarDay, formatCompact, formatUsd } from "@/lib/format";
import { useDailySales } from "@/lib/swr/use-stats";
import { useToday } from "./use-today";

const DAYS = 14;
const HEIGHT = 200;
/** Text of the axes, in CSS pixels: the chart is drawn at its real width, never scaled down. */
const FONT = 12;
/** Room a day label needs ("14 sept."), so narrow screens label every second or third day. */
const LABEL_WIDTH = 52;

/** The width of an element in CSS pixels, following resizes. */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Revenue and tickets per day over the last 14 days (approved purchases only): bars for revenue,
 * a line for tickets. One call for the series (GET /api/admin/stats/daily); the days move on at
 * midnight.
 */
export function SalesChart() {
  const t = useTranslations("admin.chart");
  const locale = useLocale();
  const { day: today, offset } = useToday();
  const days = lastDays(DAYS, new Date(`${today}T12:00:00`));
  const { data: series } = useDailySales(days[0]!, days[DAYS - 1]!, offset);
  const [frame, width] = useWidth<HTMLDivElement>();
  const dayLabel = (day: string) => formatCalendarDay(day, locale, "short");

  const data = series?.map((d) => ({ day: d.date, revenue: Number(d.revenue), revenueText: d.revenue, tickets: d.ticketsSold }));
  const pad = { top: 12, right: 32, bottom: FONT + 14, left: 44 };
  const innerW = Math.max(0, width - pad.left - pad.right);
  const innerH = HEIGHT - pad.top - pad.bottom;
  const maxRevenue = Math.max(1, ...(data ?? []).map((d) => d.revenue));
  const maxTickets = Math.max(1, ...(data ?? []).map((d) => d.tickets));
  const step = innerW / DAYS;
  // Label every day when there is room, else every second or third, always including today.
  const every = Math.max(1, Math.ceil(LABEL_WIDTH / Math.max(step, 1)));
  const empty = data !== undefined && data.every((d) => d.revenue === 0 && d.tickets === 0);
  const compact = (n: number) => formatCompact(n, locale);
  const describe = (d: { day: string; revenueText: string; tickets: number }) => t("dayLabel", { day: dayLabel(d.day), revenue: formatUsd(d.revenueText, locale), tickets: d.tickets });

  return (
    <Card data-testid="sales-chart">
      <CardHeader>
        <CardTitle>
          <h2>{t("title", { days: DAYS })}</h2>
        </CardTitle>
        <CardDescription className="flex flex-wrap items-center gap-x-4 gap-y-1">
          <span>{t("subtitle")}</span>
          <span className="inline-flex items-center gap-1.5">
            <span className="size-3 rounded-sm bg-primary" aria-hidden />
            {t("revenue")}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="h-0.5 w-4 bg-success-strong" aria-hidden />
            {t("tickets")}
          </span>
        </CardDescription>
      </CardHeader>
      <CardContent className="px-3 sm:px-6">
        <div ref={frame} className="w-full">
          {!data || width === 0 ? (
            <div className="h-[200px] animate-pulse rounded-md bg-muted" />
          ) : (
            <figure className="relative">
              <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} className="block" role="img" aria-labelledby="sales-chart-desc" style={{ fontSize: FONT }}>
                <desc id="sales-chart-desc">{data.map(describe).join("; ")}</desc>
                {[0, 0.5, 1].map((f) => (
                  <g key={f}>
                    <line x1={pad.left} x2={width - pad.right} y1={pad.top + innerH * (1 - f)} y2={pad.top + innerH * (1 - f)} className="stroke-border" />
                    <text x={pad.left - 6} y={pad.top + innerH * (1 - f) + 4} textAnchor="end" className="fill-muted-foreground">
                      {compact(Math.round(maxRevenue * f))}
                    </text>
                    <text x={width - pad.right + 6} y={pad.top + innerH * (1 - f) + 4} className="fill-muted-foreground">
                      {Math.round(maxTickets * f)}
                    </text>
                  </g>
                ))}
                {data.map((d, i) => {
                  const h = (d.revenue / maxRevenue) * innerH;
                  return (
                    <g key={d.day} data-testid="chart-day" data-day={d.day} data-revenue={d.revenueText} data-tickets={d.tickets}>
                      <rect x={pad.left + i * step + step * 0.18} y={pad.top + innerH - h} width={step * 0.64} height={h} rx={2} className="fill-primary">
                        <title>{describe(d)}</title>
                      </rect>
                      {(DAYS - 1 - i) % every === 0 && (
                        <text x={pad.left + i * step + step / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-muted-foreground" data-testid="chart-label">
                          {dayLabel(d.day)}
                        </text>
                      )}
                    </g>
                  );
                })}
                <polyline
                  fill="none"
                  strokeWidth={2}
                  className="stroke-success-strong"
                  points={data.map((d, i) => `${pad.left + i * step + step / 2},${pad.top + innerH - (d.tickets / maxTickets) * innerH}`).join(" ")}
                />
                {data.map((d, i) => (
                  <circle key={d.day} cx={pad.left + i * step + step / 2} cy={pad.top + innerH - (d.tickets / maxTickets) * innerH} r={3} className="fill-success-strong" />
                ))}
              </svg>
              {empty && <figcaption className="mt-2 text-center text-sm text-muted-foreground">{t("empty")}</figcaption>}
            </figure>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
