import { useLocale, useTranslations } from "next-intl";
import type { PrizeSource } from "@/lib/api/types";
import { drawNumberLabel } from "@/lib/draw/display";
import { numberFromLottery } from "@/lib/draw/verify";
import { formatCount } from "@/lib/format";

/** The lottery result the rule's example reads, as decision 0020's. */
const EXAMPLE_RESULT = "12-34-5678";

/**
 * The published rule (decision 0020) in plain words, with this raffle's figures filled in: how
 * many digits are read, its first and last numbers. Only the sources its prizes use are
 * explained.
 */
export function DrawRule({ maxTickets, digits, sources, rule = "rifa-rule-v1" }: { maxTickets: number; digits: number; sources: readonly PrizeSource[]; rule?: string }) {
  const t = useTranslations("draw.rule");
  const locale = useLocale();
  const label = (n: number) => drawNumberLabel(n, maxTickets);
  const bounds = { first: label(1), last: label(maxTickets) };
  const lottery = sources.some((s) => s.kind === "lottery");
  const beacon = sources.some((s) => s.kind === "beacon");
  if (rule === "rifa-among-sold-v2" || rule === "rifa-number-v2") {
    const used = numberFromLottery(EXAMPLE_RESULT, maxTickets).step.used;
    return (
      <div className="space-y-3 text-sm leading-relaxed" data-testid="draw-rule" data-rule={rule}>
        <ol className="list-decimal space-y-2 pl-5 marker:font-semibold">
          {lottery && <li>{rule === "rifa-among-sold-v2" ? t("amongSold", { digits }) : t("numberV2", { digits, example: EXAMPLE_RESULT, used })}</li>}
          {lottery && rule === "rifa-among-sold-v2" && <li>{t("sameChance")}</li>}
          {lottery && <li>{t("fallback")}</li>}
          {(beacon || lottery) && <li>{t("beaconAmongSold")}</li>}
          <li>{t("noWinner")}</li>
        </ol>
        <p className="text-muted-foreground">{t("order")}</p>
        <p className="text-muted-foreground">{t("frozen")}</p>
      </div>
    );
  }
  return (
    <div className="space-y-3 text-sm leading-relaxed" data-testid="draw-rule">
      <ol className="list-decimal space-y-2 pl-5 marker:font-semibold">
        {lottery && (
          <li>
            {t("lottery", { digits, example: EXAMPLE_RESULT, used: numberFromLottery(EXAMPLE_RESULT, maxTickets).step.used })}
            {/* With fewer than 3 digits, "46 se lee 46" would explain nothing. */}
            {digits > 2 && ` ${t("padding", { padded: "46".padStart(digits, "0") })}`}
          </li>
        )}
        {beacon && <li>{t("beacon", { max: formatCount(maxTickets, locale), ...bounds })}</li>}
        <li>{t("sold")}</li>
        <li>{t("upward", { ...bounds, zero: label(0) })}</li>
        <li>{t("noWinner")}</li>
      </ol>
      <p className="text-muted-foreground">{t("order")}</p>
      <p className="text-muted-foreground">{t("frozen")}</p>
    </div>
  );
}
