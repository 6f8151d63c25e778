"use client";

import useSWR from "swr";
import type { Raffle } from "@/lib/api/types";

/** The admin's view of a raffle (any status); only requested when an admin is signed in. */
export function useAdminRaffle(raffleId: number | null, isAdmin: boolean) {
  return useSWR<Raffle>(isAdmin && raffleId !== null ? ["/api/admin/raffles", raffleId] : null);
}
