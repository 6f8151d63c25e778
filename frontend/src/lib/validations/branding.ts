import { z } from "zod";
import { COLOR_FIELDS, normalizeHsl, type ColorField } from "@/lib/admin/hsl";

/** The site's contact details and links (blank hides one on the site). */
export const LINK_FIELDS = ["contactEmail", "contactPhone", "whatsappUrl", "facebookUrl", "instagramUrl", "tiktokUrl", "whatsappChannelUrl", "lotteryResultsUrl", "video1", "video2"] as const;
/** Static marketing figures (SPEC §1): counts shown as "N+", prizes as typed. */
export const FIGURE_FIELDS = ["participants", "prizes", "countries", "rafflesPageParticipants", "rafflesPagePrizes", "rafflesPageWinners"] as const;
export const COUNT_FIELDS = ["participants", "countries", "rafflesPageParticipants", "rafflesPageWinners"] as const;
type SiteField = (typeof LINK_FIELDS)[number] | (typeof FIGURE_FIELDS)[number];

export type BrandingValues = Record<ColorField, string> & Record<SiteField, string> & { companyName: string; logoUrl: string; description: string };

/** The branding form: colours in any form `normalizeHsl` reads (HSL or hex), counts as whole numbers. */
export function brandingSchema(m: { invalidHsl: string; invalidCount: string }) {
  const shape: Record<string, z.ZodType<string>> = { companyName: z.string(), logoUrl: z.string(), description: z.string() };
  for (const field of COLOR_FIELDS) shape[field] = z.string().refine((v) => normalizeHsl(v) !== null, m.invalidHsl);
  for (const field of [...LINK_FIELDS, ...FIGURE_FIELDS]) shape[field] = z.string();
  for (const field of COUNT_FIELDS) shape[field] = z.string().refine((v) => /^\d{1,10}$/.test(v.trim()), m.invalidCount);
  return z.object(shape) as unknown as z.ZodType<BrandingValues, BrandingValues>;
}
