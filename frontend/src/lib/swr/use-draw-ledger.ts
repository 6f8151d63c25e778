"use client";

import useSWR from "swr";
import type { PublishedLedger } from "@/lib/api/types";
import { swrKeys } from "./cache";

/**
 * A raffle's published ledger, for the verification page to check in the browser. Read once:
 * the file does not change after the freeze, only its prizes' results are added, and the page
 * is reloaded to see those.
 */
export function useDrawLedger(raffleId: number) {
  return useSWR<PublishedLedger>(swrKeys.drawLedger(raffleId));
}
