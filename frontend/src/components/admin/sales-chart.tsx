"use client";

import { useMemo } from "react";
import useSWR from "swr";
import { useLocale, useTranslations } from "next-intl";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { apiJson } from "@/lib/api/fetcher";
import type { DashboardStats } from "@/lib/api/types";
import { lastDays, utcOffsetMinutes } from "@/lib/admin/dates";
import { formatUsd } from "@/lib/format";

const DAYS = 14;

interface DayFigure {
  day: string;
  revenue: number;
  revenueText: string;
  tickets: number;
}

/** One stats call per day (the API has no series call); approved purchases only. */
async function fetchSeries(key: string): Promise<DayFigure[]> {
  const [, offset, ...days] = key.split("|");
  return Promise.all(
    days.map(async (day) => {
      const s = await apiJson<DashboardStats>(`/api/admin/stats?date=${day}&utcOffsetMinutes=${offset}`);
      return { day, revenue: Number(s.totalRevenue), revenueText: s.totalRevenue, tickets: s.ticketsSold };
    }),
  );
}

/** Revenue and tickets per day over the last 14 days: bars for revenue, a line for tickets. */
export function SalesChart() {
  const t = useTranslations("admin.chart");
  const locale = useLocale();
  const days = useMemo(() => lastDays(DAYS), []);
  // The key starts with the stats URL so a decision's refresh also redraws the chart.
  const key = `/api/admin/stats/series|${utcOffsetMinutes()}|${days.join("|")}`;
  const { data } = useSWR<DayFigure[]>(key, fetchSeries);
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(locale === "en" ? "en-US" : "es-ES", { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));

  const width = 900;
  const height = 200;
  const pad = { top: 12, right: 36, bottom: 24, left: 52 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const maxRevenue = Math.max(1, ...(data ?? []).map((d) => d.revenue));
  const maxTickets = Math.max(1, ...(data ?? []).map((d) => d.tickets));
  const step = innerW / DAYS;
  const empty = data !== undefined && data.every((d) => d.revenue === 0 && d.tickets === 0);

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
      <CardContent>
        {!data ? (
          <div className="h-48 animate-pulse rounded-md bg-muted" />
        ) : (
          <figure className="relative">
            <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-labelledby="sales-chart-desc">
              <desc id="sales-chart-desc">
                {data.map((d) => t("dayLabel", { day: dayLabel(d.day), revenue: formatUsd(d.revenueText), tickets: d.tickets })).join("; ")}
              </desc>
              {[0, 0.5, 1].map((f) => (
                <g key={f}>
                  <line x1={pad.left} x2={width - pad.right} y1={pad.top + innerH * (1 - f)} y2={pad.top + innerH * (1 - f)} className="stroke-border" />
                  <text x={pad.left - 6} y={pad.top + innerH * (1 - f) + 4} textAnchor="end" className="fill-muted-foreground text-[10px]">
                    {Math.round(maxRevenue * f).toLocaleString("es-ES")}
                  </text>
                  <text x={width - pad.right + 6} y={pad.top + innerH * (1 - f) + 4} className="fill-muted-foreground text-[10px]">
                    {Math.round(maxTickets * f)}
                  </text>
                </g>
              ))}
              {data.map((d, i) => {
                const h = (d.revenue / maxRevenue) * innerH;
                return (
                  <g key={d.day}>
                    <rect x={pad.left + i * step + step * 0.18} y={pad.top + innerH - h} width={step * 0.64} height={h} rx={2} className="fill-primary">
                      <title>{t("dayLabel", { day: dayLabel(d.day), revenue: formatUsd(d.revenueText), tickets: d.tickets })}</title>
                    </rect>
                    {(i % 2 === DAYS % 2 || DAYS <= 7) && (
                      <text x={pad.left + i * step + step / 2} y={height - 6} textAnchor="middle" className="fill-muted-foreground text-[10px]">
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
                <circle key={d.day} cx={pad.left + i * step + step / 2} cy={pad.top + innerH - (d.tickets / maxTickets) * innerH} r={2.5} className="fill-success-strong" />
              ))}
            </svg>
            {empty && <figcaption className="mt-2 text-center text-sm text-muted-foreground">{t("empty")}</figcaption>}
          </figure>
        )}
      </CardContent>
    </Card>
  );
}
