import { z } from "zod";
import { BANK_ACCOUNT_TYPES, CRYPTO_NETWORKS } from "@/lib/admin/payment-details";

const keyValue = z.object({ key: z.string(), value: z.string() });

/**
 * The payment-method form: a name, the type, an optional linked rate (its id, "" for none) and
 * every type's details (only the chosen type's are sent: `detailsFor`).
 */
export function paymentMethodSchema(required: string) {
  return z.object({
    name: z.string().trim().min(1, required),
    type: z.string(),
    exchangeRateId: z.string(),
    details: z.object({
      digital: z.array(keyValue),
      bank: z.object({ bankName: z.string(), accountNumber: z.string(), accountType: z.enum(BANK_ACCOUNT_TYPES) }),
      crypto: z.object({ walletAddress: z.string(), network: z.enum(CRYPTO_NETWORKS) }),
      extra: z.array(keyValue),
    }),
  });
}

export type PaymentMethodValues = z.input<ReturnType<typeof paymentMethodSchema>>;
