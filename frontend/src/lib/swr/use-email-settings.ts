"use client";

import useSWR from "swr";
import type { EmailSettings } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

export function useEmailSettings(enabled: boolean) {
  return useSWR<EmailSettings>(useAdminKey(enabled ? swrKeys.emailSettings : null));
}
