"use client";

import useSWR from "swr";
import type { AdminPurchase, PurchasePage } from "@/lib/api/types";
import { LIVE_READ, swrKeys, useAdminKey } from "./cache";

/** One page of the server-side purchase search (`purchaseSearchQuery`). */
export function usePurchasePage(query: string) {
  return useSWR<PurchasePage>(useAdminKey(swrKeys.purchasePage(query)), { ...LIVE_READ, keepPreviousData: true });
}

/** One purchase, read afresh each time its dialog opens (a decision may have changed it). */
export function usePurchase(purchaseId: number) {
  return useSWR<AdminPurchase>(useAdminKey(swrKeys.purchase(purchaseId)), { revalidateOnMount: true, dedupingInterval: 0 });
}
