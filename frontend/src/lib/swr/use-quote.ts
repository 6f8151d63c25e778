"use client";

import useSWR from "swr";
import type { PriceQuote } from "@/lib/api/types";

/** The server's price for `count` tickets (discounts included); no request for 0. */
export function useQuote(raffleId: number, count: number) {
  return useSWR<PriceQuote>(count > 0 ? `/api/raffles/${raffleId}/quote?count=${count}` : null, {
    keepPreviousData: true,
  });
}
