"use client";

import useSWR from "swr";
import { useSession } from "@/lib/auth/session";
import { isAdminUser } from "@/lib/admin/role";
import type {
  DashboardStats,
  DaySales,
  EmailSettings,
  ExchangeRate,
  OutboxMail,
  PaymentMethod,
  PurchasePage,
  Raffle,
  Branding,
} from "@/lib/api/types";

/** Admin reads: each keyed only while an admin's session exists, so no other page calls them. */
function useAdminKey<T extends string>(key: T | null): T | null {
  const session = useSession();
  return isAdminUser(session?.user) && key ? key : null;
}

export const ADMIN_KEYS = {
  stats: "/api/admin/stats",
  dailySales: "/api/admin/stats/daily",
  raffles: "/api/admin/raffles",
  methods: "/api/admin/payment-methods",
  rates: "/api/admin/exchange-rates",
  emailSettings: "/api/admin/email-settings",
  branding: "/api/branding",
} as const;

/**
 * Purchases and their figures change under the operator (decisions, live purchases): an event
 * refreshes what is on screen, and a page, tab or filter shown again is read again (in the
 * background, over the cached copy) rather than trusted from the cache as other reads are.
 */
const LIVE_READ = { revalidateIfStale: true } as const;

export function useStats(query = "") {
  return useSWR<DashboardStats>(useAdminKey(`${ADMIN_KEYS.stats}${query ? `?${query}` : ""}`), LIVE_READ);
}

/** The chart's series: every day from `from` to `to` in one call (GET /api/admin/stats/daily). */
export function useDailySales(from: string, to: string, utcOffsetMinutes: number) {
  return useSWR<DaySales[]>(useAdminKey(`${ADMIN_KEYS.dailySales}?from=${from}&to=${to}&utcOffsetMinutes=${utcOffsetMinutes}`), {
    ...LIVE_READ,
    keepPreviousData: true,
  });
}

/** One page of the server-side purchase search (`purchaseSearchQuery`). */
export function usePurchasePage(query: string) {
  return useSWR<PurchasePage>(useAdminKey(`/api/admin/purchases/search?${query}`), { ...LIVE_READ, keepPreviousData: true });
}

export function useAdminRaffles() {
  return useSWR<Raffle[]>(useAdminKey(ADMIN_KEYS.raffles));
}

export function useAdminPaymentMethods() {
  return useSWR<PaymentMethod[]>(useAdminKey(ADMIN_KEYS.methods));
}

export function useExchangeRates() {
  return useSWR<ExchangeRate[]>(useAdminKey(ADMIN_KEYS.rates));
}

export function useEmailSettings(enabled: boolean) {
  return useSWR<EmailSettings>(useAdminKey(enabled ? ADMIN_KEYS.emailSettings : null));
}

export function useMailOutbox(status: string, enabled: boolean) {
  return useSWR<OutboxMail[]>(useAdminKey(enabled ? `/api/admin/mail-outbox?status=${status}&limit=50` : null));
}

export function useBranding() {
  return useSWR<Branding>(ADMIN_KEYS.branding);
}
