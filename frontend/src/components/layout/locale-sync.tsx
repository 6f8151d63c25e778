"use client";

import { useEffect } from "react";
import { useLocale } from "next-intl";
import { useRouter } from "next/navigation";
import { cookieLocale, persistLocale, storedLocale } from "@/lib/i18n/client";

/**
 * Keeps the cookie (what the server renders) and the spec's local-storage key in step: a
 * language remembered only in storage (cookie expired or cleared) is restored once; otherwise
 * storage follows the cookie.
 */
export function LocaleSync() {
  const locale = useLocale();
  const router = useRouter();
  useEffect(() => {
    const stored = storedLocale();
    if (stored && stored !== locale && cookieLocale() === null) {
      persistLocale(stored);
      router.refresh();
    } else if (stored !== locale || cookieLocale() === null) {
      // The cookie rules (a link that named its language set it): storage follows.
      persistLocale(locale);
    }
  }, [locale, router]);
  return null;
}
