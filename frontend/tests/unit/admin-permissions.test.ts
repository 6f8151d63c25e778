// What each role sees in the panel (decision 0023): the tabs by the permissions the server gives
// the session's user, none while it must replace a handed-over password, and a user stored
// before roles existed read again rather than guessed.
import { describe, expect, it } from "vitest";
import { allowedTabs, can, isStaffRole, predatesRoles } from "@/lib/admin/permissions";
import type { AuthUser } from "@/lib/api/types";

/** The server's permissions of each role (crates/domain/src/admin.rs). */
const ROLES = {
  owner: ["purchases", "reports", "catalogue", "draws", "settings", "staff", "audit"],
  manager: ["purchases", "reports", "catalogue", "draws"],
  reviewer: ["purchases"],
  catalogue: ["catalogue"],
};
const user = (permissions: string[], mustChangePassword = false) => ({ permissions, mustChangePassword });

describe("the panel's tabs by role", () => {
  it("gives each role its tabs, in the panel's order", () => {
    expect(allowedTabs(user(ROLES.owner))).toEqual(["purchases", "daily", "raffles", "methods", "rates", "branding", "email", "staff", "audit"]);
    expect(allowedTabs(user(ROLES.manager))).toEqual(["purchases", "daily", "raffles", "methods", "rates"]);
    expect(allowedTabs(user(ROLES.reviewer))).toEqual(["purchases", "daily"]);
    expect(allowedTabs(user(ROLES.catalogue))).toEqual(["raffles", "methods", "rates"]);
  });

  it("opens on the first tab the role has", () => {
    expect(allowedTabs(user(ROLES.catalogue))[0]).toBe("raffles");
    expect(allowedTabs(user(ROLES.reviewer))[0]).toBe("purchases");
  });

  it("allows nothing while a handed-over password waits to be replaced", () => {
    expect(allowedTabs(user(ROLES.owner, true))).toEqual([]);
    expect(can(user(ROLES.owner, true), "purchases")).toBe(false);
  });

  it("grants only the permissions named", () => {
    expect(can(user(ROLES.manager), "reports")).toBe(true);
    expect(can(user(ROLES.manager), "draws")).toBe(true);
    expect(can(user(ROLES.manager), "settings")).toBe(false);
    expect(can(user(ROLES.reviewer), "reports")).toBe(false);
    expect(can(user(ROLES.catalogue), "draws")).toBe(false);
  });
});

describe("a stored user", () => {
  it("from before roles existed has no permissions to go by and must be read again", () => {
    const old = { id: 1, username: "admin", role: "admin", authenticated: true, privileged: true } as unknown as AuthUser;
    expect(predatesRoles(old)).toBe(true);
    expect(allowedTabs(old)).toEqual([]);
    expect(predatesRoles(user([]))).toBe(false);
  });

  it("names its role only when the panel knows it", () => {
    expect(["owner", "manager", "reviewer", "catalogue"].every(isStaffRole)).toBe(true);
    expect(isStaffRole("admin")).toBe(false);
    expect(isStaffRole(undefined)).toBe(false);
  });
});
