import { z } from "zod";

export const CURRENCIES = ["USD", "EUR", "VES", "COP"] as const;

/** A positive rate typed with a dot or comma, or null. */
export function parseRateInput(text: string): number | null {
  const value = text.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$/.test(value)) return null;
  const n = Number(value);
  return n > 0 && Number.isFinite(n) ? n : null;
}

/** The exchange-rate form: two different currencies and a positive rate (the server's rules too). */
export function rateSchema(m: { invalid: string; sameCurrency: string }) {
  return z
    .object({
      fromCurrency: z.string(),
      toCurrency: z.string(),
      rate: z.string().refine((v) => parseRateInput(v) !== null, m.invalid),
    })
    .refine((v) => v.fromCurrency !== v.toCurrency, { message: m.sameCurrency, path: ["toCurrency"] });
}

export type RateValues = z.input<ReturnType<typeof rateSchema>>;
