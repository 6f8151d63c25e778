"use client";

import useSWR from "swr";
import type { StaffMember } from "@/lib/api/types";
import { swrKeys, useAdminKey } from "./cache";

/** While someone has yet to replace a handed-over password, the team is asked again this often. */
export const STAFF_REFRESH_MS = 15_000;

/** How soon to read the team again: only while an account waits for its first own password. */
export function staffRefreshInterval(team: StaffMember[] | undefined): number {
  return team?.some((member) => member.mustChangePassword) ? STAFF_REFRESH_MS : 0;
}

/**
 * The team's accounts, oldest first: role, state and last sign-in (the 'Equipo' tab). A member's
 * first sign-in happens elsewhere, so the "temporary password" badge is read again until it goes.
 */
export function useStaff() {
  return useSWR<StaffMember[]>(useAdminKey(swrKeys.staff), { refreshInterval: staffRefreshInterval });
}
