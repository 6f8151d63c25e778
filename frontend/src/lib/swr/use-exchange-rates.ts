"use client";

import useSWR from "swr";
import type { ExchangeRate } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

export function useExchangeRates() {
  return useSWR<ExchangeRate[]>(useAdminKey(swrKeys.exchangeRates));
}
