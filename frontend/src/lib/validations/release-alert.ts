import { z } from "zod";

/** The release alert's one field: where to write when held numbers come back on sale. */
export function releaseAlertSchema(m: { required: string; email: string }) {
  return z.object({ email: z.string().trim().min(1, m.required).pipe(z.email(m.email)) });
}

export type ReleaseAlertValues = z.input<ReturnType<typeof releaseAlertSchema>>;
