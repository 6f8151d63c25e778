import { z } from "zod";

/** The sign-in form: both fields filled (the password as typed, spaces and all). */
export function loginSchema(required: string) {
  return z.object({
    username: z.string().trim().min(1, required),
    password: z.string().refine((v) => v.trim() !== "", required),
  });
}

export type LoginValues = z.input<ReturnType<typeof loginSchema>>;
