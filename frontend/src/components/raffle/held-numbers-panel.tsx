"use client";

import { useEffect } from "react";
import { useLocale, useTranslations } from "next-intl";
import { Hourglass } from "lucide-react";
import { AFTER_DEADLINE_MS } from "@/lib/countdown";
import { formatCount, formatUpcoming } from "@/lib/format";
import { useServerNow } from "@/lib/use-server-clock";
import { ReleaseAlertForm } from "./release-alert-form";

/**
 * Nothing on sale, but some numbers are only held by purchases that may still expire: says so,
 * when the next hold ends (`X-Next-Release-At`), offers the release alert, and reads the numbers
 * again once that hold is due (`onDue`).
 */
export function HeldNumbersPanel({
  raffleId,
  pendingCount,
  nextReleaseAt,
  serverTime,
  onDue,
}: {
  raffleId: number;
  pendingCount: number;
  nextReleaseAt: string | null;
  /** The raffle's `serverTime`: "today at 14:05" is today on the server's clock. */
  serverTime: string | null;
  onDue: () => void;
}) {
  const t = useTranslations("heldNumbers");
  const locale = useLocale();
  const now = useServerNow(serverTime);
  const next = nextReleaseAt && now !== null ? formatUpcoming(nextReleaseAt, locale, now) : null;

  useEffect(() => {
    if (!nextReleaseAt) return;
    const wait = Math.min(Math.max(Date.parse(nextReleaseAt) - Date.now(), 0) + AFTER_DEADLINE_MS, 2 ** 31 - 1);
    const timer = window.setTimeout(onDue, wait);
    return () => window.clearTimeout(timer);
  }, [nextReleaseAt, onDue]);

  return (
    <section aria-labelledby="held-title" className="space-y-4 rounded-xl border border-warning/50 bg-warning/5 p-5 shadow-sm" data-testid="held-numbers">
      <div className="flex items-start gap-4">
        <Hourglass aria-hidden className="size-8 shrink-0 text-warning-strong" />
        <div className="space-y-1">
          <h2 id="held-title" className="text-lg font-bold">{t("title")}</h2>
          <p className="text-sm text-muted-foreground">{t("text", { count: pendingCount, shown: formatCount(pendingCount, locale) })}</p>
          <p className="text-sm font-medium" data-testid="next-release">
            {next ? (next.sameDay ? t("nextToday", { time: next.text }) : t("nextLater", { date: next.text })) : nextReleaseAt ? null : t("noDeadline")}
          </p>
        </div>
      </div>
      <ReleaseAlertForm raffleId={raffleId} />
    </section>
  );
}
