"use client";

import { LANGUAGE_STORAGE_KEY, LOCALE_COOKIE, type Locale, isLocale } from "./config";

const ONE_YEAR = 60 * 60 * 24 * 365;

/** Remembers the language in the cookie (read by the server) and in local storage (the spec's key). */
export function persistLocale(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Storage can be disabled (private mode in some in-app browsers); the cookie still works.
  }
  document.documentElement.lang = locale;
}

export function storedLocale(): Locale | null {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function cookieLocale(): Locale | null {
  const match = document.cookie.match(new RegExp(`(?:^|; )${LOCALE_COOKIE}=([^;]*)`));
  const value = match?.[1];
  return isLocale(value) ? value : null;
}
