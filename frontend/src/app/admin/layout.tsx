import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin.header");
  return { title: t("title"), robots: { index: false, follow: false } };
}

/** Texts the admin pages never use (the public site's long pages). */
const NOT_FOR_ADMIN = ["faq", "legal", "meta"];

/**
 * The admin panel (SPEC §2 /admin/*): its own texts reach the browser only on these pages, and
 * its code only in these routes' chunks, so the public pages carry none of it.
 */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  const adminMessages = Object.fromEntries(Object.entries(messages).filter(([namespace]) => !NOT_FOR_ADMIN.includes(namespace)));
  return (
    <NextIntlClientProvider locale={locale} messages={adminMessages}>
      {children}
    </NextIntlClientProvider>
  );
}
