import { NextResponse, type NextRequest } from "next/server";
import { LOCALE_COOKIE, isLocale } from "@/lib/i18n/config";

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * A link the server handed out names its reader's language (`/compra/12?lang=en`, from an
 * English e-mail): the page renders in it and the browser keeps it, even one that never saw
 * the site. Anything else passes untouched.
 */
export function proxy(request: NextRequest): NextResponse {
  const lang = request.nextUrl.searchParams.get("lang");
  if (!isLocale(lang)) return NextResponse.next();
  // This render reads the cookie from the request; the browser keeps it from the response.
  request.cookies.set(LOCALE_COOKIE, lang);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(LOCALE_COOKIE, lang, { path: "/", maxAge: ONE_YEAR, sameSite: "lax" });
  return response;
}

export const config = {
  // Pages only: not the API the site forwards, Next's own files, or static files.
  matcher: ["/((?!api/|_next/|.*\\.[a-z0-9]+$).*)"],
};
