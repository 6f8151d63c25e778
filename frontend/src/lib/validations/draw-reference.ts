import { z } from "zod";

/** The verification page's one field: a purchase reference, or a link carrying one. */
export function drawReferenceSchema(empty: string) {
  return z.object({ reference: z.string().trim().min(1, empty) });
}

export type DrawReferenceValues = z.input<ReturnType<typeof drawReferenceSchema>>;
