"use client";

import { useCallback, useMemo } from "react";
import { useSWRConfig } from "swr";
import { CHART_REFRESH_MS, throttleTrailing } from "@/lib/admin/refresh";
import { isAdminUser } from "@/lib/admin/role";
import type { AdminPurchase } from "@/lib/api/types";
import { useSession } from "@/lib/auth/session";

/**
 * The one place that names the SWR cache: every key (the API path the default fetcher GETs) and
 * what each change makes stale. Hooks in `use-<resource>.ts` read through these keys; a write
 * calls `useInvalidate()` instead of matching keys by hand.
 */
export const swrKeys = {
  paymentMethods: "/api/payment-methods",
  quote: (raffleId: number, count: number) => `/api/raffles/${raffleId}/quote?count=${count}`,
  availability: (raffleId: number, admin: boolean) => `${admin ? "/api/admin/raffles" : "/api/raffles"}/${raffleId}/availability`,
  branding: "/api/branding",
  raffle: (raffleId: number) => `/api/raffles/${raffleId}`,
  /** The published ledger of a frozen draw (also the "Descargar el archivo del sorteo" link). */
  drawLedger: (raffleId: number) => `/api/raffles/${raffleId}/draw/ledger`,
  adminRaffles: "/api/admin/raffles",
  adminRaffle: (raffleId: number) => `/api/admin/raffles/${raffleId}`,
  adminPromotions: (raffleId: number) => `/api/admin/raffles/${raffleId}/promotions`,
  /** A raffle's verifiable draw (prizes, freeze, results, claims); a raffle saved makes it stale too. */
  adminDraw: (raffleId: number) => `/api/admin/raffles/${raffleId}/draw`,
  adminPaymentMethods: "/api/admin/payment-methods",
  exchangeRates: "/api/admin/exchange-rates",
  stats: (query = "") => `/api/admin/stats${query ? `?${query}` : ""}`,
  dailySales: (from: string, to: string, utcOffsetMinutes: number) => `/api/admin/stats/daily?from=${from}&to=${to}&utcOffsetMinutes=${utcOffsetMinutes}`,
  purchasePage: (query: string) => `/api/admin/purchases/search?${query}`,
  purchase: (purchaseId: number) => `/api/admin/purchases/${purchaseId}`,
  /** What the check of a purchase's proof found (stale with the purchase: same prefix). */
  proofCheck: (purchaseId: number) => `/api/admin/purchases/${purchaseId}/proof-check`,
  /** The reviewer's queue (`proofQueueQuery`); stale with the purchases (a decision, a live notice). */
  proofQueue: (query: string) => `/api/admin/proof-queue${query ? `?${query}` : ""}`,
  emailSettings: "/api/admin/email-settings",
  mailOutbox: (status: string) => `/api/admin/mail-outbox?status=${status}&limit=50`,
  /** The audit trail (`auditQuery`); a decision adds to it (stale with the purchases). */
  audit: (query: string) => `/api/admin/audit?${query}`,
  /** The check of the whole chain, read when the tab opens and on 'Verificar de nuevo' only. */
  auditVerification: "/api/admin/audit/verification",
  /** Each person's decisions from `from` to `to` (local days); a decision adds to them (stale with the purchases). */
  auditFigures: (from: string, to: string, utcOffsetMinutes: number) => `/api/admin/audit/figures?from=${from}&to=${to}&utcOffsetMinutes=${utcOffsetMinutes}`,
  /** The team's accounts, oldest first (owners only). */
  staff: "/api/admin/staff",
  /** The buyer's view; its key also holds the purchase's key, sent as X-Purchase-Token. */
  buyerPurchase: (purchaseId: number) => `/api/purchases/${purchaseId}/buyer`,
} as const;

/**
 * Key prefixes each change makes stale. A prefix ending in "?" is one path with any query or
 * none ("/api/admin/stats?" is the figures, not "/api/admin/stats/daily", the chart).
 */
const STALE_AFTER = {
  /** A decision or a live purchase: lists, the review queue, single purchases, figures, the audit trail and its per-person figures (not its check), never the chart (see `chart`). */
  purchases: ["/api/admin/purchases", "/api/admin/proof-queue", "/api/admin/stats?", "/api/admin/audit?", "/api/admin/audit/figures?"],
  /** The sales chart: refreshed at most once a minute (lib/admin/refresh.ts). */
  chart: ["/api/admin/stats/daily"],
  /** A raffle saved or deleted: raffle reads everywhere and the figures (active raffles). */
  raffles: ["/api/admin/raffles", "/api/admin/stats?"],
  paymentMethods: ["/api/admin/payment-methods", "/api/payment-methods"],
  /** Methods show their linked rate. */
  exchangeRates: ["/api/admin/exchange-rates", "/api/admin/payment-methods", "/api/payment-methods"],
  mailOutbox: ["/api/admin/mail-outbox"],
  /** An account created, changed or given a new password: the team and the trail that records it. */
  staff: ["/api/admin/staff", "/api/admin/audit?"],
  /** A proof the buyer sent from their page. */
  buyerPurchase: ["/api/purchases/"],
} as const satisfies Record<string, readonly string[]>;

type StaleGroup = keyof typeof STALE_AFTER;

function urlOf(key: unknown): string | null {
  const url = Array.isArray(key) ? key[0] : key;
  return typeof url === "string" ? url : null;
}

function keyMatches(key: unknown, prefixes: string | readonly string[]): boolean {
  const url = urlOf(key);
  if (url === null) return false;
  return (typeof prefixes === "string" ? [prefixes] : prefixes).some((prefix) =>
    prefix.endsWith("?") ? url === prefix.slice(0, -1) || url.startsWith(prefix) : url.startsWith(prefix),
  );
}

type Mutate = ReturnType<typeof useSWRConfig>["mutate"];

/** Revalidates every cached read whose key starts with one of `prefixes` (as dubinc/dub's). */
function mutatePrefix(mutate: Mutate, prefixes: string | readonly string[]) {
  return mutate((key) => keyMatches(key, prefixes));
}

/** Purchase lists, single purchases and the dashboard figures, but not the chart. */
export const isPurchaseViewKey = (key: unknown) => keyMatches(key, STALE_AFTER.purchases);
/** The sales chart's series (GET /api/admin/stats/daily). */
export const isChartKey = (key: unknown) => keyMatches(key, STALE_AFTER.chart);

/** `invalidate.raffles()` and the like: revalidates what that change made stale. */
export function useInvalidate(): Record<StaleGroup, () => Promise<unknown>> {
  const { mutate } = useSWRConfig();
  return useMemo(
    () => Object.fromEntries(Object.entries(STALE_AFTER).map(([group, prefixes]) => [group, () => mutatePrefix(mutate, prefixes)])) as Record<StaleGroup, () => Promise<unknown>>,
    [mutate],
  );
}

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

/** A decision's answer: the purchase as decided (its open dialog must not show the pending copy again), then the refresh. */
export function usePurchaseDecided(): (decided: AdminPurchase) => void {
  const { mutate } = useSWRConfig();
  const refresh = usePurchaseRefresh();
  return useCallback(
    (decided: AdminPurchase) => {
      void mutate(swrKeys.purchase(decided.id), decided, { revalidate: false });
      refresh();
    },
    [mutate, refresh],
  );
}

/** Admin reads: keyed only while an admin's session exists, so no other page calls them. */
export function useAdminKey(key: string | null): string | null {
  const session = useSession();
  return isAdminUser(session?.user) && key ? key : null;
}

/**
 * Purchases and their figures change under the operator (decisions, live purchases): an event
 * refreshes what is on screen, and a page, tab or filter shown again is read again (in the
 * background, over the cached copy) rather than trusted from the cache as other reads are.
 */
export const LIVE_READ = { revalidateIfStale: true } as const;
