/**
 * What the signed-in account may do in the panel (decision 0023): the `permissions` the server
 * gives its role, none while a handed-over password waits to be replaced. The server refuses
 * everything else; the panel leaves out what it would refuse, so no screen asks for a 403.
 */
import type { AuthUser } from "@/lib/api/types";

export type Permission = "purchases" | "reports" | "catalogue" | "draws" | "settings" | "staff" | "audit";

export const STAFF_ROLES = ["owner", "manager", "reviewer", "catalogue"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: string | null | undefined): value is StaffRole {
  return (STAFF_ROLES as readonly (string | null | undefined)[]).includes(value);
}

type Grants = Pick<AuthUser, "permissions" | "mustChangePassword">;

export function can(user: Grants, permission: Permission): boolean {
  return !user.mustChangePassword && Array.isArray(user.permissions) && user.permissions.includes(permission);
}

/** The panel's tabs in their order, each with the permission it needs. */
const TABS = [
  ["purchases", "purchases"],
  ["daily", "purchases"],
  ["raffles", "catalogue"],
  ["methods", "catalogue"],
  ["rates", "catalogue"],
  ["branding", "settings"],
  ["email", "settings"],
  ["staff", "staff"],
  ["audit", "audit"],
] as const satisfies readonly (readonly [string, Permission])[];

export type TabId = (typeof TABS)[number][0];

/** The tabs the account may open, in order: the first is where the panel opens. */
export function allowedTabs(user: Grants): TabId[] {
  return TABS.filter(([, permission]) => can(user, permission)).map(([id]) => id);
}

/** A user stored before accounts had roles has no permissions to go by: it must be read again (GET /api/admin/me). */
export function predatesRoles(user: Partial<Grants>): boolean {
  return !Array.isArray(user.permissions);
}
