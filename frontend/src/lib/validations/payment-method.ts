import { z } from "zod";
import { BANK_ACCOUNT_TYPES, CRYPTO_NETWORKS } from "@/lib/admin/payment-details";

const keyValue = z.object({ key: z.string(), value: z.string() });

/** The longest minimum of letters and digits an admin may ask of a reference (the server's). */
export const MAX_REFERENCE_MIN_LENGTH = 30;

/** The minimum as typed ("" is 0), or null when it is no whole number from 0 to 30. */
export function referenceMinOf(typed: string): number | null {
  const text = typed.trim();
  if (!text) return 0;
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value <= MAX_REFERENCE_MIN_LENGTH ? value : null;
}

/**
 * The payment-method form: a name, the type, an optional linked rate (its id, "" for none),
 * whether buyers must type their payment's reference and its minimum of letters and digits
 * (checked only while required), and every type's details (only the chosen type's are sent:
 * `detailsFor`).
 */
export function paymentMethodSchema(required: string, outOfRange = required) {
  return z.object({
    name: z.string().trim().min(1, required),
    type: z.string(),
    exchangeRateId: z.string(),
    referenceRequired: z.boolean(),
    referenceMinLength: z.string(),
    details: z.object({
      digital: z.array(keyValue),
      bank: z.object({ bankName: z.string(), accountNumber: z.string(), accountType: z.enum(BANK_ACCOUNT_TYPES) }),
      crypto: z.object({ walletAddress: z.string(), network: z.enum(CRYPTO_NETWORKS) }),
      extra: z.array(keyValue),
    }),
  }).superRefine((values, ctx) => {
    if (values.referenceRequired && referenceMinOf(values.referenceMinLength) === null) {
      ctx.addIssue({ code: "custom", path: ["referenceMinLength"], message: outOfRange });
    }
  });
}

export type PaymentMethodValues = z.input<ReturnType<typeof paymentMethodSchema>>;
