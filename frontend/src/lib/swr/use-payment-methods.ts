"use client";

import useSWR from "swr";
import type { PaymentMethod } from "@/lib/api/types";

/** Active payment methods (public list). `fallbackData` lets a server-rendered list seed it. */
export function usePaymentMethods(fallbackData?: PaymentMethod[]) {
  return useSWR<PaymentMethod[]>("/api/payment-methods", { fallbackData });
}
