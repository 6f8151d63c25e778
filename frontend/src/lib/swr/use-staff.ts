"use client";

import useSWR from "swr";
import type { StaffMember } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

/** The team's accounts, oldest first: role, state and last sign-in (the 'Equipo' tab). */
export function useStaff() {
  return useSWR<StaffMember[]>(useAdminKey(swrKeys.staff));
}
