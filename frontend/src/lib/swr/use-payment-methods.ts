"use client";

import useSWR from "swr";
import type { PaymentMethod } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

/** Active payment methods (public list). `fallbackData` lets a server-rendered list seed it. */
export function usePaymentMethods(fallbackData?: PaymentMethod[], enabled = true) {
  return useSWR<PaymentMethod[]>(enabled ? swrKeys.paymentMethods : null, { fallbackData });
}

/** Every payment method, inactive ones included. */
export function useAdminPaymentMethods() {
  return useSWR<PaymentMethod[]>(useAdminKey(swrKeys.adminPaymentMethods));
}
