import { useTranslations } from "next-intl";
import { knownDetailKey, splitKey } from "@/lib/payment-methods";

/**
 * A payment method's detail keys and values in the page's language: known keys ("bankName",
 * "bank_name") get their label, others (the operator's own words) are split into words; the
 * account types "corriente" and "ahorro" are translated.
 */
export function usePaymentDetailLabels() {
  const t = useTranslations("paymentDetails");
  return {
    label: (key: string) => {
      const known = knownDetailKey(key);
      return known ? t(`keys.${known}`) : splitKey(key);
    },
    value: (key: string, value: unknown) => {
      const text = value == null ? "" : String(value);
      return knownDetailKey(key) === "accountType" && (text === "corriente" || text === "ahorro") ? t(`accountTypes.${text}`) : text;
    },
  };
}
