"use client";

import { useEffect } from "react";
import { useTranslations } from "next-intl";
import { CalendarX2, Lock, Timer } from "lucide-react";
import { Progress } from "@/components/ui/progress";
import { TONE_BAR, TONE_TEXT, closedPanel, countdownTarget, countdownTone, remaining } from "@/lib/countdown";
import { useServerNow } from "@/lib/use-server-clock";
import { cn } from "@/lib/utils";

/**
 * Ticks every second to when sales close (the server's `salesCloseAt`, else the draw or end
 * date), on the server's clock (`serverTime`); shows the closed panel at zero, or at once when
 * the server says sales are closed (`closed`).
 */
export function Countdown({
  drawDate,
  endDate,
  createdAt,
  salesCloseAt,
  serverTime = null,
  closed = false,
  renderedAt = null,
  onClosedChange,
}: {
  drawDate: string | null;
  endDate: string | null;
  createdAt: string | null;
  /** When sales close, as the server computed it (undefined: an answer that does not say). */
  salesCloseAt?: string | null;
  /** The server's clock when it answered, to correct this browser's. */
  serverTime?: string | null;
  /** The server says sales are closed already (`salesOpen` false on a raffle on sale). */
  closed?: boolean;
  /** The server's clock when it rendered the page (ms), used until hydration is done. */
  renderedAt?: number | null;
  onClosedChange?: (closed: boolean) => void;
}) {
  const t = useTranslations("countdown");
  const counted = countdownTarget(drawDate, endDate, salesCloseAt);
  const { target } = counted;
  const nowMs = useServerNow(serverTime, renderedAt);
  const now = nowMs === null ? null : new Date(nowMs);

  const left = target && now ? remaining(target, now, createdAt ? new Date(createdAt) : null) : null;
  const done = closed || (left?.done ?? false);
  useEffect(() => {
    onClosedChange?.(done);
  }, [done, onClosedChange]);

  if (!target && !closed) return null;

  if (done) {
    // Closed by the server ahead of the clock (a skewed clock, or a status change): sales, not the draw.
    const drawn = Boolean(left?.done) && closedPanel(counted, now) === "drawn";
    return (
      <div role="status" className="flex items-center gap-4 rounded-xl border border-danger/40 bg-danger/5 p-5" data-testid="countdown-closed">
        {drawn ? <CalendarX2 aria-hidden className="size-8 shrink-0 text-danger-strong" /> : <Lock aria-hidden className="size-8 shrink-0 text-danger-strong" />}
        <div>
          <p className="text-lg font-bold text-danger-strong">{drawn ? t("drawn") : t("closed")}</p>
          <p className="text-sm text-muted-foreground">{drawn ? t("drawnText") : t("closedText")}</p>
        </div>
      </div>
    );
  }

  const tone = left ? countdownTone(left.share) : "success";
  const units = [
    { value: left?.days, label: t("days") },
    { value: left?.hours, label: t("hours") },
    { value: left?.minutes, label: t("minutes") },
    { value: left?.seconds, label: t("seconds") },
  ];
  return (
    <div className="space-y-3 rounded-xl border bg-card p-5 shadow-sm" data-testid="countdown" data-tone={tone}>
      <p className="inline-flex items-center gap-2 text-sm font-semibold">
        <Timer aria-hidden className={cn("size-4", TONE_TEXT[tone])} />
        {t("title")}
      </p>
      <div className="grid grid-cols-4 gap-2" aria-hidden={left === null}>
        {units.map((u) => (
          <div key={u.label} className="rounded-lg bg-muted py-2 text-center">
            <span className={cn("block font-mono text-2xl font-bold tabular-nums sm:text-3xl", TONE_TEXT[tone])}>
              {u.value === undefined ? "--" : String(u.value).padStart(2, "0")}
            </span>
            <span className="text-xs text-muted-foreground">{u.label}</span>
          </div>
        ))}
      </div>
      <Progress value={left ? left.share * 100 : 100} indicatorClassName={TONE_BAR[tone]} aria-label={t("title")} />
    </div>
  );
}
