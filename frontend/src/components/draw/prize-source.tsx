import { useLocale, useTranslations } from "next-intl";
import { ExternalLink } from "lucide-react";
import type { PrizeSource } from "@/lib/api/types";
import { formatDate } from "@/lib/format";
import { DEFAULT_LOTTERY_TIME_ZONE, zoneCity } from "@/lib/draw/display";

/** Where a prize's number comes from: a lottery's draw of a given day, or a drand round fixed in advance. */
export function PrizeSourceText({ source }: { source: PrizeSource }) {
  const t = useTranslations("draw.source");
  const locale = useLocale();
  if (source.kind === "beacon") {
    return (
      <p>
        <span className="font-medium">{t("beacon", { round: String(source.round) })}</span>
        <span className="block text-xs text-muted-foreground">{t("beaconHint")}</span>
      </p>
    );
  }
  return (
    <p>
      <span className="font-medium">{t("lottery", { lottery: source.lotteryName, date: formatDate(source.drawDate, locale), time: source.drawTime || "00:00", zone: zoneCity(source.timeZone || DEFAULT_LOTTERY_TIME_ZONE) })}</span>
      {" · "}
      <a href={source.sourceUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
        {t("link")}
        <ExternalLink aria-hidden className="size-3.5" />
      </a>
    </p>
  );
}
