"use client";

import { useCallback } from "react";
import { useSWRConfig } from "swr";
import { CHART_REFRESH_MS, isChartKey, isPurchaseViewKey, throttleTrailing } from "@/lib/admin/refresh";

type Mutate = ReturnType<typeof useSWRConfig>["mutate"];

// One chart refresh per minute for the whole panel, however many events ask for it.
let latestMutate: Mutate | null = null;
const scheduleChart = throttleTrailing(() => void latestMutate?.(isChartKey), CHART_REFRESH_MS);

/**
 * After a decision or a live notice: refetch the purchase lists, the open purchase and the
 * figures now, and the sales chart within a minute (see lib/admin/refresh.ts).
 */
export function usePurchaseRefresh(): () => void {
  const { mutate } = useSWRConfig();
  return useCallback(() => {
    latestMutate = mutate;
    void mutate(isPurchaseViewKey);
    scheduleChart();
  }, [mutate]);
}
