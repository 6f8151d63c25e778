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

/** One decimal at most, without a trailing ".0": 57.84 → "57.8", 100 → "100". */
const oneDecimal = (n: number) => String(Math.round(n * 10) / 10);

/**
 * A hex colour ("#7c3aed", "#7C3AED", "#abc") as the theme's HSL ("262.1 83.3% 57.8%", one
 * decimal at most), or null. The API stores colours only in the spec's HSL form.
 */
export function hexToHsl(input: string): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(input.trim());
  if (!match) return null;
  const digits = match[1] as string;
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) {
    if (max === r) h = 60 * (((g - b) / d + 6) % 6);
    else if (max === g) h = 60 * ((b - r) / d + 2);
    else h = 60 * ((r - g) / d + 4);
  }
  // 359.96 rounds to 360, which is the same hue as 0.
  const hue = Math.round(h * 10) / 10 === 360 ? 0 : h;
  return `${oneDecimal(hue)} ${oneDecimal(s * 100)}% ${oneDecimal(l * 100)}%`;
}

/** The theme's HSL as "#rrggbb" (a colour picker's value), or null when it is not valid HSL. */
export function hslToHex(input: string): string | null {
  const c = parseHsl(normalizeHsl(input));
  if (!c) return null;
  const s = c.s / 100;
  const l = c.l / 100;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + c.h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255).toString(16).padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * Reads what an admin typed as a colour: "240 9% 3.9%", "hsl(240, 9%, 3.9%)", "240,9%,3.9%"
 * and the hex "#0a0a0b" all become the theme's HSL "240 9% 3.9%" (hex to one decimal);
 * anything else is null.
 */
export function normalizeHsl(input: string): string | null {
  const hex = hexToHsl(input);
  if (hex) return hex;
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
