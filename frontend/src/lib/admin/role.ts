import type { AuthUser } from "@/lib/api/types";

/** Whether a stored user may use the panel: SPEC §6 "Administrator (role admin in the locally stored user)". */
export function isAdminUser(user: Pick<AuthUser, "role"> | null | undefined): boolean {
  return user?.role === "admin";
}
