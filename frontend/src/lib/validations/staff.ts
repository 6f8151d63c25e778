import { z } from "zod";
import { STAFF_ROLES } from "@/lib/admin/permissions";

/** The server's username rules (crates/domain/src/admin.rs, parse_username): 3–50 of a-z 0-9 . _ - */
export const USERNAME = { min: 3, max: 50, pattern: /^[a-z0-9._-]+$/ } as const;

/** A new account: a username by the server's rules (typed in any case: it is stored in lower case) and a role. */
export function newStaffSchema(m: { tooShort: string; tooLong: string; characters: string }) {
  return z.object({
    username: z
      .string()
      .trim()
      .min(USERNAME.min, m.tooShort)
      .max(USERNAME.max, m.tooLong)
      .refine((v) => USERNAME.pattern.test(v.toLowerCase()), m.characters),
    role: z.enum(STAFF_ROLES),
  });
}

export type NewStaffValues = z.input<ReturnType<typeof newStaffSchema>>;

/** A role picked for an account. */
export const staffRoleSchema = z.object({ role: z.enum(STAFF_ROLES) });

export type StaffRoleValues = z.input<typeof staffRoleSchema>;
