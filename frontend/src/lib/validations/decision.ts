import { z } from "zod";

/** A decision's notes: optional to approve, required to reject (the e-mail quotes them). */
export function decisionSchema(rejecting: boolean, required: string) {
  return z.object({ notes: z.string().refine((v) => !rejecting || v.trim() !== "", required) });
}

export type DecisionValues = z.input<ReturnType<typeof decisionSchema>>;
