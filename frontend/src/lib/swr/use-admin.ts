"use client";

import useSWR from "swr";
import { useSession } from "@/lib/auth/session";
import type {
  DashboardStats,
  EmailSettings,
  ExchangeRate,
  OutboxMail,
  PaymentMethod,
  PurchasePage,
  Raffle,
  Branding,
} from "@/lib/api/types";

/** Admin reads: each keyed only while a session exists, so a signed-out page never calls them. */
function useAdminKey<T extends string>(key: T | null): T | null {
  const session = useSession();
  return session && key ? key : null;
}

export const ADMIN_KEYS = {
  stats: "/api/admin/stats",
  raffles: "/api/admin/raffles",
  methods: "/api/admin/payment-methods",
  rates: "/api/admin/exchange-rates",
  emailSettings: "/api/admin/email-settings",
  branding: "/api/branding",
} as const;

export function useStats(query = "") {
  return useSWR<DashboardStats>(useAdminKey(`${ADMIN_KEYS.stats}${query ? `?${query}` : ""}`));
}

/** One page of the server-side purchase search (`purchaseSearchQuery`). */
export function usePurchasePage(query: string) {
  return useSWR<PurchasePage>(useAdminKey(`/api/admin/purchases/search?${query}`), { keepPreviousData: true });
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
