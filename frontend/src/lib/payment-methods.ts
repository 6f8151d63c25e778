import { KNOWN_DETAIL_KEYS, type KnownDetailKey } from "@/lib/admin/payment-details";
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

/**
 * Keys operators write in Spanish or as plain words, by their folded form (lower case, no
 * accents, spaces or separators): "banco", "Teléfono", "tipo_de_cuenta".
 */
const DETAIL_KEY_ALIASES: Record<string, KnownDetailKey> = {
  banco: "bankName",
  bank: "bankName",
  numerodecuenta: "accountNumber",
  nrodecuenta: "accountNumber",
  tipodecuenta: "accountType",
  tipocuenta: "accountType",
  titular: "accountHolder",
  billetera: "walletAddress",
  direcciondebilletera: "walletAddress",
  wallet: "walletAddress",
  red: "network",
  correo: "email",
  correoelectronico: "email",
  telefono: "phone",
  cuenta: "account",
  cedula: "idNumber",
};

const fold = (key: string) =>
  key
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-zA-Z0-9]/g, "")
    .toLowerCase();

/** The known key a details key spells ("bank_name", "bankName", "Banco" → "bankName"), or null. */
export function knownDetailKey(key: string): KnownDetailKey | null {
  const folded = fold(key);
  const known = KNOWN_DETAIL_KEYS.find((k) => k.toLowerCase() === folded);
  return known ?? DETAIL_KEY_ALIASES[folded] ?? null;
}
