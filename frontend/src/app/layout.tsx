import type { Metadata, Viewport } from "next";
import localFont from "next/font/local";
import { headers } from "next/headers";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import { Providers } from "@/components/providers";
import { getBranding } from "@/lib/api/server";
import { brandingCss, companyName } from "@/lib/theme";
import "./globals.css";

// Inter ships in the repository (an npm font package): nothing is fetched at build or run time.
const inter = localFont({
  src: "../../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  weight: "100 900",
  display: "swap",
});

/**
 * The public origin for absolute Open Graph URLs: RIFA_SITE_URL, else the request's own host
 * (the forwarded one behind a proxy or CDN).
 */
async function siteUrl(): Promise<URL> {
  if (process.env.RIFA_SITE_URL) return new URL(process.env.RIFA_SITE_URL);
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "127.0.0.1:3000";
  const proto = h.get("x-forwarded-proto") ?? (host.startsWith("127.") || host.startsWith("localhost") ? "http" : "https");
  return new URL(`${proto}://${host}`);
}

/**
 * Long texts only server components read, the admin panel's texts (its layout sends them to
 * admin pages only) and the draw's (the verification page sends them to its own check only):
 * not sent to every public page's browser.
 */
const SERVER_ONLY_NAMESPACES = ["faq", "legal", "meta", "admin", "draw"];

export async function generateMetadata(): Promise<Metadata> {
  const [t, branding] = await Promise.all([getTranslations("meta"), getBranding()]);
  const name = companyName(branding);
  return {
    metadataBase: await siteUrl(),
    title: { default: `${name} · ${t("title")}`, template: `%s · ${name}` },
    description: branding?.description || t("description"),
    applicationName: name,
    openGraph: { siteName: name, type: "website" },
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#ffffff",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [locale, messages, branding] = await Promise.all([getLocale(), getMessages(), getBranding()]);
  // Long static texts stay on the server; client components get the rest.
  const clientMessages = Object.fromEntries(
    Object.entries(messages).filter(([namespace]) => !SERVER_ONLY_NAMESPACES.includes(namespace)),
  );
  return (
    <html lang={locale} className={inter.variable} suppressHydrationWarning>
      <head>
        {/* Branding colours before the first paint: no flash of the default theme. */}
        <style id="branding-theme" dangerouslySetInnerHTML={{ __html: brandingCss(branding) }} />
      </head>
      <body className="min-h-dvh antialiased">
        <NextIntlClientProvider locale={locale} messages={clientMessages}>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
