"use client";

import useSWR from "swr";
import { fetchBuyerPurchase } from "@/lib/api/client";
import type { BuyerPurchaseView } from "@/lib/api/types";
import { swrKeys } from "./cache";

/** While a purchase is pending, its page looks again this often (an admin may decide it). */
export const BUYER_REFRESH_MS = 30_000;

/**
 * The buyer's view of their purchase, read with its key (from the page's fragment); no request
 * without one. Read again while pending, and when the buyer comes back to the tab.
 */
export function useBuyerPurchase(purchaseId: number | null, purchaseToken: string | null) {
  return useSWR<BuyerPurchaseView, unknown, readonly [string, string] | null>(
    purchaseId !== null && purchaseToken ? [swrKeys.buyerPurchase(purchaseId), purchaseToken] : null,
    ([, token]) => fetchBuyerPurchase(purchaseId as number, token),
    {
      refreshInterval: (view) => (view?.purchase.status === "pending" ? BUYER_REFRESH_MS : 0),
      revalidateOnFocus: true,
      keepPreviousData: true,
    },
  );
}
