import { z } from "zod";

/**
 * The SMTP settings form. Everything may be blank (no SMTP: mail waits in the outbox); the
 * server checks the host, port and sender and its messages land on those fields.
 */
export const emailSettingsSchema = z.object({
  emailHost: z.string(),
  emailPort: z.string(),
  emailUser: z.string(),
  emailPass: z.string(),
  fromEmail: z.string(),
  /** Delete the stored password on save (the field itself is write-only: blank keeps it). */
  clearPassword: z.boolean(),
});

export type EmailSettingsValues = z.input<typeof emailSettingsSchema>;

/** The test e-mail's recipient: blank sends to the sender, else an address the server checks. */
export const testEmailSchema = z.object({ to: z.string() });

export type TestEmailValues = z.input<typeof testEmailSchema>;
