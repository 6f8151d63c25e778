import { useLocale, useTranslations } from "next-intl";
import type { DrawStep } from "@/lib/api/types";
import { drawNumberLabel } from "@/lib/draw/display";
import { formatCount, formatDate } from "@/lib/format";

/** How many characters of a beacon's randomness the rule reads: its first 8 bytes. */
const BEACON_PREFIX = 16;

/**
 * A step of the rule as a sentence for a buyer (server and client components). A drand round is
 * an identifier, passed as text so it is not grouped like a count.
 */
export function useStepText(maxTickets: number): (step: DrawStep) => string {
  const t = useTranslations("draw.steps");
  const locale = useLocale();
  const label = (n: number) => drawNumberLabel(n, maxTickets);
  const bounds = { first: label(1), last: label(maxTickets) };
  return (step) => {
    switch (step.step) {
      case "lastDigits":
        return t("lastDigits", { result: step.result, digits: step.digits, used: step.used, number: label(step.number) });
      case "beacon":
        return t("beacon", { round: String(step.round), prefix: step.randomnessHex.slice(0, BEACON_PREFIX), max: formatCount(maxTickets, locale), number: label(step.number) });
      case "notInRaffle":
        return t("notInRaffle", { number: label(step.number), ...bounds });
      case "notSold":
        return t("notSold", { number: label(step.number), next: label(step.next) });
      case "alreadyWon":
        return t("alreadyWon", { number: label(step.number), next: label(step.next) });
      case "wrappedAround":
        return t("wrappedAround", bounds);
      case "wins":
        return t("wins", { number: label(step.number) });
      case "noWinner":
        return t("noWinner");
      case "digits":
        return t("digits", { result: step.result, digits: step.digits, used: step.used });
      case "beaconRandomness":
        return t("beaconRandomness", { round: String(step.round), prefix: step.randomnessHex.slice(0, BEACON_PREFIX) });
      case "names":
        return t("names", { number: label(step.number) });
      case "outsideRaffle":
        return t("outsideRaffle", { number: label(step.number), first: label(1), last: label(step.maxTickets) });
      case "notSoldNextSource":
        return t("notSoldNextSource", { number: label(step.number) });
      case "alreadyWonNextSource":
        return t("alreadyWonNextSource", { number: label(step.number) });
      case "incompleteRound":
        return t("incompleteRound", { count: formatCount(step.count, locale) });
      case "inPlay":
        return t("inPlay", { count: step.count });
      case "place":
        return t("place", { count: formatCount(step.count, locale), remainder: formatCount(step.remainder, locale), number: label(step.number) });
      case "nextSource":
        return t("nextSource");
      case "rehashed":
        return t("rehashed", { prefix: step.randomnessHex.slice(0, BEACON_PREFIX) });
      case "sourceLapsed":
        return t("sourceLapsed", { source: String(step.source), deadline: formatDate(step.deadline, locale, true) });
    }
  };
}

/** A winner's country by its name in the page's language, when the API sends one of the form's codes. */
export function useCountryName(): (country: string) => string {
  const t = useTranslations("purchase.countries");
  return (country) => (t.has(country as never) ? t(country as never) : country);
}
