import type { Branding } from "./api/types";

/** The spec's default colours (SPEC §9), as HSL triples for `hsl(var(--x))`. */
export const DEFAULT_COLORS = {
  primary: "240 9% 3.9%",
  secondary: "240 4.8% 95.9%",
  accent: "240 4.8% 95.9%",
  danger: "0 84.2% 60.2%",
  success: "142 76% 36%",
} as const;

export const DEFAULT_COMPANY = "Rifa";

const HSL = /^(\d{1,3}(?:\.\d+)?)\s+(\d{1,3}(?:\.\d+)?)%\s+(\d{1,3}(?:\.\d+)?)%$/;

/** An HSL triple as the theme takes it, or null (never lets other text into the style tag). */
export function parseHsl(value: string | null | undefined): { h: number; s: number; l: number } | null {
  const match = HSL.exec((value ?? "").trim());
  if (!match) return null;
  const [h, s, l] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (h > 360 || s > 100 || l > 100) return null;
  return { h, s, l };
}

/** Dark text on light colours, white on dark ones (WCAG relative luminance of the HSL colour). */
export function foregroundFor(hsl: string): string {
  const c = parseHsl(hsl);
  if (!c) return "0 0% 98%";
  const s = c.s / 100;
  const l = c.l / 100;
  const k = (n: number) => (n + c.h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const lin = (v: number) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(channel(0)) + 0.7152 * lin(channel(8)) + 0.0722 * lin(channel(4));
  // Contrast against white vs against near-black: pick the larger.
  const withWhite = 1.05 / (luminance + 0.05);
  const withDark = (luminance + 0.05) / 0.0535;
  return withWhite >= withDark ? "0 0% 98%" : "240 10% 3.9%";
}

/** The CSS that applies a branding's colours, inlined in <head> so the first paint has them. */
export function brandingCss(branding: Branding | null): string {
  const pick = (value: string | undefined, fallback: string) => (parseHsl(value) ? (value as string).trim() : fallback);
  const primary = pick(branding?.primaryColor, DEFAULT_COLORS.primary);
  const secondary = pick(branding?.secondaryColor, DEFAULT_COLORS.secondary);
  const accent = pick(branding?.accentColor, DEFAULT_COLORS.accent);
  const danger = pick(branding?.dangerColor, DEFAULT_COLORS.danger);
  const success = pick(branding?.successColor, DEFAULT_COLORS.success);
  return `:root{--primary:${primary};--primary-foreground:${foregroundFor(primary)};--secondary:${secondary};--secondary-foreground:${foregroundFor(secondary)};--accent:${accent};--accent-foreground:${foregroundFor(accent)};--danger:${danger};--success:${success};--ring:${primary}}`;
}

export function companyName(branding: Branding | null): string {
  return branding?.companyName?.trim() || DEFAULT_COMPANY;
}
