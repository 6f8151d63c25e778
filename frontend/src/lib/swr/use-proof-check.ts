"use client";

import useSWR from "swr";
import type { ProofCheck } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

/** While a proof's check is still running, its dialog asks again this often. */
export const PROOF_CHECK_REFRESH_MS = 3_000;

/**
 * What the check of a purchase's proof found, read afresh each time its dialog opens and again
 * every 3 s while the check is pending (it runs in the background, every few seconds). A
 * decision or a live notice revalidates it with the purchase (its key shares the prefix).
 */
export function useProofCheck(purchaseId: number | null) {
  return useSWR<ProofCheck>(useAdminKey(purchaseId === null ? null : swrKeys.proofCheck(purchaseId)), {
    revalidateOnMount: true,
    dedupingInterval: 0,
    refreshInterval: (check) => (check?.status === "pending" ? PROOF_CHECK_REFRESH_MS : 0),
  });
}
