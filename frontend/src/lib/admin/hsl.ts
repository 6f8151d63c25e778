import { DEFAULT_COLORS, parseHsl } from "@/lib/theme";

/** The branding form's five colour fields (SPEC §2 "Branding tab"). */
export const COLOR_FIELDS = ["primaryColor", "secondaryColor", "accentColor", "dangerColor", "successColor"] as const;
export type ColorField = (typeof COLOR_FIELDS)[number];

export const DEFAULT_BRANDING_COLORS: Record<ColorField, string> = {
  primaryColor: DEFAULT_COLORS.primary,
  secondaryColor: DEFAULT_COLORS.secondary,
  accentColor: DEFAULT_COLORS.accent,
  dangerColor: DEFAULT_COLORS.danger,
  successColor: DEFAULT_COLORS.success,
};

/**
 * Reads what an admin typed as HSL: "240 9% 3.9%", "hsl(240, 9%, 3.9%)", "240,9%,3.9%" all
 * become the theme's "240 9% 3.9%"; anything else is null.
 */
export function normalizeHsl(input: string): string | null {
  let text = input.trim();
  const fn = /^hsla?\((.*)\)$/i.exec(text);
  if (fn) text = fn[1] ?? "";
  text = text.replace(/,/g, " ").replace(/\s+/g, " ").trim();
  const [h, s, l] = text.split(" ");
  if (h === undefined || s === undefined || l === undefined || text.split(" ").length !== 3) return null;
  const candidate = `${h.replace(/deg$/i, "")} ${s.endsWith("%") ? s : `${s}%`} ${l.endsWith("%") ? l : `${l}%`}`;
  return parseHsl(candidate) ? candidate : null;
}

/** The CSS colour of a typed value for the live swatch, or null when it is not valid HSL. */
export function swatchColor(input: string): string | null {
  const value = normalizeHsl(input);
  return value ? `hsl(${value})` : null;
}

/** Stored colours with the spec's defaults where a value is missing or invalid (the Reset button). */
export function colorsWithDefaults(stored: Partial<Record<ColorField, string | null | undefined>> | null | undefined): Record<ColorField, string> {
  const out = { ...DEFAULT_BRANDING_COLORS };
  for (const field of COLOR_FIELDS) {
    const value = normalizeHsl(stored?.[field] ?? "");
    if (value) out[field] = value;
  }
  return out;
}
