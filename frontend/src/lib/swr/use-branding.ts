"use client";

import useSWR from "swr";
import type { Branding } from "@/lib/api/types";
import { swrKeys } from "./cache";

export function useBranding() {
  return useSWR<Branding>(swrKeys.branding);
}
