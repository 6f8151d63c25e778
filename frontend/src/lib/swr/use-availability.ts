"use client";

import useSWR from "swr";
import { fetchAvailability, type Availability } from "@/lib/api/client";

/** The raffle's availability bitmap (admin variant for any status). Refreshed after a purchase. */
export function useAvailability(raffleId: number, admin: boolean) {
  return useSWR<Availability>(["availability", raffleId, admin ? "admin" : "public"], () =>
    fetchAvailability(raffleId, admin),
  );
}
