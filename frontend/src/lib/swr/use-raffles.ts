"use client";

import useSWR from "swr";
import type { Promotion, Raffle } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

/**
 * A raffle on sale as the API sees it now, over the server-rendered copy (`fallbackData`): a
 * page kept by a CDN may be minutes old, so whether sales are open and the server's clock are
 * read again in the browser. Off (`enabled` false) for raffles the public cannot read.
 */
export function useLiveRaffle(raffleId: number, fallbackData: Raffle, enabled = true) {
  return useSWR<Raffle>(enabled ? swrKeys.raffle(raffleId) : null, { fallbackData, revalidateOnMount: true });
}

/** Every raffle, any status (the public list is read on the server). */
export function useAdminRaffles() {
  return useSWR<Raffle[]>(useAdminKey(swrKeys.adminRaffles));
}

/** The admin's view of a raffle (any status); only requested when an admin is signed in. */
export function useAdminRaffle(raffleId: number | null, isAdmin: boolean) {
  return useSWR<Raffle>(isAdmin && raffleId !== null ? swrKeys.adminRaffle(raffleId) : null);
}

/** The promotions of a raffle the public cannot see (null: none asked for yet). */
export function useAdminPromotions(raffleId: number | null) {
  return useSWR<Promotion[]>(raffleId !== null ? swrKeys.adminPromotions(raffleId) : null);
}
