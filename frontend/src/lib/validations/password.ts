import { z } from "zod";

/** The server's shortest new password (crates/domain/src/admin.rs, check_new_password). */
export const MIN_PASSWORD_LENGTH = 12;

/**
 * Changing one's own password: the current one, and the new one typed twice, at least 12
 * characters. Whether it is guessable, or the current one again, only the server can tell.
 */
export function passwordChangeSchema(m: { required: string; tooShort: string; mismatch: string }) {
  return z
    .object({
      currentPassword: z.string().min(1, m.required),
      newPassword: z.string().min(MIN_PASSWORD_LENGTH, m.tooShort),
      repeatPassword: z.string(),
    })
    .refine((v) => v.repeatPassword === v.newPassword, { message: m.mismatch, path: ["repeatPassword"] });
}

export type PasswordChangeValues = z.input<ReturnType<typeof passwordChangeSchema>>;
