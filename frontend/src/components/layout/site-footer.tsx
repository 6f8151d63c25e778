import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Mail, MessageCircle, Clock } from "lucide-react";
import type { Branding } from "@/lib/api/types";
import { SectionLink } from "./section-link";

function SocialIcon({ name }: { name: "facebook" | "instagram" | "tiktok" | "whatsapp" }) {
  // Simple monochrome marks (lucide has no brand icons); decorative, the link carries the name.
  const paths: Record<typeof name, string> = {
    facebook: "M14 8h3V4h-3c-2.8 0-4 1.7-4 4.2V10H7v4h3v8h4v-8h3l1-4h-4V8.5c0-.3.2-.5.5-.5Z",
    instagram:
      "M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4Zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm5.5-1.5a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z",
    tiktok: "M14 3h3a4 4 0 0 0 4 4v3a7 7 0 0 1-4-1.3V15a6 6 0 1 1-6-6v3.2A2.8 2.8 0 1 0 14 15V3Z",
    whatsapp:
      "M12 3a9 9 0 0 0-7.8 13.5L3 21l4.6-1.2A9 9 0 1 0 12 3Zm4.6 12.4c-.2.6-1.2 1.1-1.7 1.2-.5 0-1 .2-3.3-.7-2.8-1.1-4.5-4-4.7-4.2-.1-.2-1.1-1.5-1.1-2.8s.7-2 1-2.3c.2-.3.5-.3.7-.3h.5c.2 0 .4 0 .6.5l.8 2c.1.2.1.4 0 .5l-.3.5-.4.4c-.1.1-.3.3-.1.6.2.3.7 1.2 1.6 2 1.1 1 2 1.3 2.3 1.4.3.2.5.1.6 0l.9-1.1c.2-.3.4-.2.7-.1l1.9.9c.3.1.5.2.5.3.1.1.1.6-.1 1.2Z",
  };
  return (
    <svg viewBox="0 0 24 24" aria-hidden className="size-5 fill-current">
      <path d={paths[name]} />
    </svg>
  );
}

/** The footer; contact and social links come from the operator's branding (blank ones are left out). */
export async function SiteFooter({ companyName, branding }: { companyName: string; branding: Branding | null }) {
  const t = await getTranslations("footer");
  const link = "rounded-sm text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50";
  const socials = [
    { name: "facebook" as const, href: branding?.facebookUrl, label: "Facebook" },
    { name: "instagram" as const, href: branding?.instagramUrl, label: "Instagram" },
    { name: "tiktok" as const, href: branding?.tiktokUrl, label: "TikTok" },
    { name: "whatsapp" as const, href: branding?.whatsappChannelUrl, label: t("channel") },
  ].filter((s) => Boolean(s.href));
  const email = branding?.contactEmail;
  const phone = branding?.contactPhone;
  return (
    <footer className="mt-16 border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3">
          <p className="text-lg font-bold">{companyName}</p>
          <p className="text-sm text-muted-foreground">{t("tagline")}</p>
          {socials.length > 0 && (
          <ul className="flex gap-2" aria-label={t("social")}>
            {socials.map((s) => (
              <li key={s.name}>
                <a
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={s.label}
                  className="flex size-10 items-center justify-center rounded-full border bg-background text-foreground/80 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <SocialIcon name={s.name} />
                </a>
              </li>
            ))}
          </ul>
          )}
        </div>
        <nav aria-label={t("navigation")}>
          <h2 className="mb-3 text-sm font-semibold">{t("navigation")}</h2>
          <ul className="space-y-2">
            <li><Link href="/sorteos" className={link}>{t("raffles")}</Link></li>
            <li><SectionLink section="como-jugar" className={link}>{t("howToPlay")}</SectionLink></li>
            <li><SectionLink section="verificar" className={link}>{t("verify")}</SectionLink></li>
            <li><SectionLink section="faq" className={link}>{t("faq")}</SectionLink></li>
          </ul>
        </nav>
        <nav aria-label={t("legal")}>
          <h2 className="mb-3 text-sm font-semibold">{t("legal")}</h2>
          <ul className="space-y-2">
            <li><Link href="/terminos-y-condiciones" className={link}>{t("terms")}</Link></li>
            <li><Link href="/politica-de-privacidad" className={link}>{t("privacy")}</Link></li>
            <li><Link href="/politica-de-reembolso" className={link}>{t("refund")}</Link></li>
            <li><Link href="/juego-responsable" className={link}>{t("responsible")}</Link></li>
          </ul>
        </nav>
        <div>
          <h2 className="mb-3 text-sm font-semibold">{t("contact")}</h2>
          <ul className="space-y-2 text-sm text-muted-foreground">
            {email && (
              <li className="flex items-center gap-2">
                <Mail aria-hidden className="size-4 shrink-0" />
                <span className="sr-only">{t("email")}: </span>
                <a href={`mailto:${email}`} className={link} data-testid="footer-email">{email}</a>
              </li>
            )}
            {phone && (
              <li className="flex items-center gap-2">
                <MessageCircle aria-hidden className="size-4 shrink-0" />
                <span className="sr-only">{t("phone")}: </span>
                {branding?.whatsappUrl ? (
                  <a href={branding.whatsappUrl} target="_blank" rel="noopener noreferrer" className={link} data-testid="footer-phone">{phone}</a>
                ) : (
                  <span data-testid="footer-phone">{phone}</span>
                )}
              </li>
            )}
            <li className="flex items-center gap-2">
              <Clock aria-hidden className="size-4 shrink-0" />
              {t("hours")}
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-4 text-xs text-muted-foreground sm:flex-row sm:justify-between">
          <p>{t("rights", { year: new Date().getFullYear(), company: companyName })}</p>
          <p>{t("adults")}</p>
        </div>
      </div>
    </footer>
  );
}
