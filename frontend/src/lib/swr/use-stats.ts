"use client";

import useSWR from "swr";
import type { DashboardStats, DaySales } from "@/lib/api/types";
import { LIVE_READ, swrKeys, useAdminKey } from "./cache";

/** The dashboard's four figures, for the filters in `query` (none: all time; null: not asked for). */
export function useStats(query: string | null = "") {
  return useSWR<DashboardStats>(useAdminKey(query === null ? null : swrKeys.stats(query)), LIVE_READ);
}

/** The chart's series: every day from `from` to `to` in one call (GET /api/admin/stats/daily). */
export function useDailySales(from: string, to: string, utcOffsetMinutes: number) {
  return useSWR<DaySales[]>(useAdminKey(swrKeys.dailySales(from, to, utcOffsetMinutes)), { ...LIVE_READ, keepPreviousData: true });
}
