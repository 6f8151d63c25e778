/** Languages of the site: Spanish by default, English on request (SPEC §1). */
export const locales = ["es", "en"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "es";

/** The cookie the server reads to render in the chosen language (no locale prefix in URLs). */
export const LOCALE_COOKIE = "NEXT_LOCALE";
/** The spec's local-storage language key (SPEC §9), kept in step with the cookie. */
export const LANGUAGE_STORAGE_KEY = "language";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

export function resolveLocale(value: string | null | undefined): Locale {
  return isLocale(value) ? value : defaultLocale;
}
