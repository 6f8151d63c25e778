"use client";

import useSWR from "swr";
import type { PriceQuote } from "@/lib/api/types";
import { swrKeys } from "./cache";

/** The server's price for `count` tickets (discounts included); no request for 0. */
export function useQuote(raffleId: number, count: number) {
  return useSWR<PriceQuote>(count > 0 ? swrKeys.quote(raffleId, count) : null, {
    keepPreviousData: true,
  });
}
