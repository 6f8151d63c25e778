"use client";

import useSWR from "swr";
import { fetchAvailability, type Availability } from "@/lib/api/client";
import { swrKeys } from "./cache";

/** The raffle's availability bitmap (admin variant for any status). Refreshed after a purchase. */
export function useAvailability(raffleId: number, admin: boolean) {
  return useSWR<Availability>(swrKeys.availability(raffleId, admin), () => fetchAvailability(raffleId, admin));
}
