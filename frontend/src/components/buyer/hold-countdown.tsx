"use client";

import { useEffect } from "react";
import { useLocale, useTranslations } from "next-intl";
import { Hourglass } from "lucide-react";
import { Progress } from "@/components/ui/progress";
import { TONE_BAR, TONE_TEXT, countdownTone, remaining } from "@/lib/countdown";
import { formatDateTime } from "@/lib/format";
import { useServerNow } from "@/lib/use-server-clock";
import { cn } from "@/lib/utils";

/**
 * The time left to send the proof before the hold ends, on the server's clock (`serverTime` of
 * the view on screen); tells the page when it is over (`onOverChange`).
 */
export function HoldCountdown({
  deadline,
  createdAt,
  serverTime,
  onOverChange,
}: {
  deadline: string;
  createdAt: string;
  serverTime: string;
  onOverChange?: (over: boolean) => void;
}) {
  const t = useTranslations("buyerPage.hold");
  const tc = useTranslations("countdown");
  const locale = useLocale();
  const now = useServerNow(serverTime);
  const left = now === null ? null : remaining(new Date(deadline), new Date(now), new Date(createdAt));
  const over = left?.done ?? false;
  useEffect(() => {
    onOverChange?.(over);
  }, [over, onOverChange]);

  if (over) {
    return (
      <p role="status" className="flex items-center gap-2 rounded-xl border border-danger/40 bg-danger/5 p-4 text-sm font-medium text-danger-strong" data-testid="hold-over">
        <Hourglass aria-hidden className="size-5 shrink-0" />
        {t("over")}
      </p>
    );
  }

  const tone = left ? countdownTone(left.share) : "success";
  const units = [
    ...(left && left.days > 0 ? [{ value: left.days, label: tc("days") }] : []),
    { value: left?.hours, label: tc("hours") },
    { value: left?.minutes, label: tc("minutes") },
    { value: left?.seconds, label: tc("seconds") },
  ];
  return (
    <div className="space-y-3 rounded-xl border bg-card p-4 shadow-sm sm:p-5" data-testid="hold-countdown" data-tone={tone}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="inline-flex items-center gap-2 text-sm font-semibold">
          <Hourglass aria-hidden className={cn("size-4", TONE_TEXT[tone])} />
          {t("title")}
        </p>
        <p className="text-xs text-muted-foreground" data-testid="hold-deadline">{t("deadline", { deadline: formatDateTime(deadline, locale) })}</p>
      </div>
      <div className={cn("grid gap-2", units.length === 4 ? "grid-cols-4" : "grid-cols-3")} role="timer" aria-label={t("title")}>
        {units.map((u) => (
          <div key={u.label} className="rounded-lg bg-muted py-2 text-center">
            <span className={cn("block font-mono text-2xl font-bold tabular-nums", TONE_TEXT[tone])}>{u.value === undefined ? "--" : String(u.value).padStart(2, "0")}</span>
            <span className="text-xs text-muted-foreground">{u.label}</span>
          </div>
        ))}
      </div>
      <Progress value={left ? left.share * 100 : 100} indicatorClassName={TONE_BAR[tone]} aria-label={t("title")} />
    </div>
  );
}
