"use client";

import useSWR from "swr";
import type { OutboxMail } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

/** The last 50 messages of the outbox in one status. */
export function useMailOutbox(status: string, enabled: boolean) {
  return useSWR<OutboxMail[]>(useAdminKey(enabled ? swrKeys.mailOutbox(status) : null));
}
