import { z } from "zod";

/** The ticket check's one field: something to look for (the server reads the e-mail or phone). */
export function lookupSchema(empty: string) {
  return z.object({ value: z.string().trim().min(1, empty) });
}

export type LookupValues = z.input<ReturnType<typeof lookupSchema>>;
