import { isKnownDetailKey, type KnownDetailKey } from "@/lib/admin/payment-details";
import type { LinkedRate, PaymentMethod } from "@/lib/api/types";

/** "accountNumber" → "Account number", "bank_name" → "Bank name" (SPEC §2: the key split into words). */
export function splitKey(key: string): string {
  const words = key
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The rate that converts a USD total for this method (SPEC §2: rate × total), or null: only a
 * rate from USD to another currency converts; a rate from any other currency (EUR → VES, say)
 * says nothing about a USD amount, so no conversion is shown.
 */
export function usdConversionRate(method: Pick<PaymentMethod, "exchangeRate"> | undefined): LinkedRate | null {
  const rate = method?.exchangeRate;
  if (!rate) return null;
  if (rate.fromCurrency.toUpperCase() !== "USD" || rate.toCurrency.toUpperCase() === "USD") return null;
  return rate;
}

/** A details key as the known camelCase key it spells ("bank_name" → "bankName"), or null. */
export function knownDetailKey(key: string): KnownDetailKey | null {
  const camel = key.trim().replace(/[_\-\s]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
  const candidate = camel.charAt(0).toLowerCase() + camel.slice(1);
  return isKnownDetailKey(candidate) ? candidate : null;
}
