"use client";

import useSWR from "swr";
import type { AdminDrawView } from "@/lib/api/types";
import { LIVE_READ, swrKeys, useAdminKey } from "./cache";

/**
 * A raffle's draw as the admin manages it. Read again whenever its dialog opens (`LIVE_READ`):
 * purchases decided in another tab and sales closing change what may be done next.
 */
export function useAdminDraw(raffleId: number) {
  return useSWR<AdminDrawView>(useAdminKey(swrKeys.adminDraw(raffleId)), LIVE_READ);
}
