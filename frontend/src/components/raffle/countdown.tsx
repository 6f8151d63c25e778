"use client";

import { useEffect, useSyncExternalStore } from "react";
import { useTranslations } from "next-intl";
import { CalendarX2, Lock, Timer } from "lucide-react";
import { Progress } from "@/components/ui/progress";
import { countdownTarget, countdownTone, remaining, TICK_MS } from "@/lib/countdown";
import { cn } from "@/lib/utils";

const toneText = { success: "text-success-strong", warning: "text-warning-strong", danger: "text-danger-strong" } as const;
const toneBar = { success: "bg-success-strong", warning: "bg-warning", danger: "bg-danger-strong" } as const;

/**
 * The current time, to the second. While server-rendering and hydrating it is the server's
 * render time (`renderedAt`, the same on both sides: no mismatch), or null when unknown.
 */
function subscribeToClock(onTick: () => void): () => void {
  const id = window.setInterval(onTick, TICK_MS);
  return () => window.clearInterval(id);
}
const clockSnapshot = () => Math.floor(Date.now() / TICK_MS) * TICK_MS;

/** Ticks every second to the draw (or end) date; shows the closed panel at zero. */
export function Countdown({
  drawDate,
  endDate,
  createdAt,
  renderedAt = null,
  onClosedChange,
}: {
  drawDate: string | null;
  endDate: string | null;
  createdAt: string | null;
  /** The server's clock when it rendered the page (ms), used until hydration is done. */
  renderedAt?: number | null;
  onClosedChange?: (closed: boolean) => void;
}) {
  const t = useTranslations("countdown");
  const { target, closedKind } = countdownTarget(drawDate, endDate);
  const serverNow = renderedAt === null ? null : Math.floor(renderedAt / TICK_MS) * TICK_MS;
  const nowMs = useSyncExternalStore(subscribeToClock, clockSnapshot, () => serverNow);
  const now = nowMs === null ? null : new Date(nowMs);

  const left = target && now ? remaining(target, now, createdAt ? new Date(createdAt) : null) : null;
  const done = left?.done ?? false;
  useEffect(() => {
    onClosedChange?.(done);
  }, [done, onClosedChange]);

  if (!target) return null;

  if (left?.done) {
    const drawn = closedKind === "drawn";
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
        <Timer aria-hidden className={cn("size-4", toneText[tone])} />
        {t("title")}
      </p>
      <div className="grid grid-cols-4 gap-2" aria-hidden={left === null}>
        {units.map((u) => (
          <div key={u.label} className="rounded-lg bg-muted py-2 text-center">
            <span className={cn("block font-mono text-2xl font-bold tabular-nums sm:text-3xl", toneText[tone])}>
              {u.value === undefined ? "--" : String(u.value).padStart(2, "0")}
            </span>
            <span className="text-xs text-muted-foreground">{u.label}</span>
          </div>
        ))}
      </div>
      <Progress value={left ? left.share * 100 : 100} indicatorClassName={toneBar[tone]} aria-label={t("title")} />
    </div>
  );
}
