import { getTranslations } from "next-intl/server";
import { getBranding } from "@/lib/api/server";
import { companyName } from "@/lib/theme";
import { SiteHeader } from "./site-header";
import { SiteFooter } from "./site-footer";

/** Header, main landmark and footer of every public page. */
export async function SiteShell({ children }: { children: React.ReactNode }) {
  const [branding, t] = await Promise.all([getBranding(), getTranslations("common")]);
  const name = companyName(branding);
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:ring-[3px] focus:ring-ring/50"
      >
        {t("skipToContent")}
      </a>
      <SiteHeader companyName={name} logoUrl={branding?.logoUrl ?? ""} />
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      <SiteFooter companyName={name} branding={branding} />
    </>
  );
}
