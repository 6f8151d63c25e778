import { NextIntlClientProvider } from "next-intl";
import es from "../../messages/es.json";
import en from "../../messages/en.json";

/** Renders children with the site's messages in one language, as the app's providers do. */
export function Intl({ locale = "es", children }: { locale?: "es" | "en"; children: React.ReactNode }) {
  return (
    <NextIntlClientProvider locale={locale} messages={locale === "es" ? es : en} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}

/** A stored admin session (SPEC §3 "Logged-in user") whose token expires in an hour. */
export function storeAdminSession() {
  const payload = btoa(JSON.stringify({ sub: "1", exp: Math.floor(Date.now() / 1000) + 3600 }));
  localStorage.setItem("auth_token", `e30.${payload}.sig`);
  localStorage.setItem("auth_user", JSON.stringify({ id: 1, username: "admin", role: "admin", isAuthenticated: true, isSuperAdmin: true }));
}
