import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ArrowLeft } from "lucide-react";
import { LEGAL_SLUGS, legalPage, type LegalSlug } from "@/content/legal";

/** One legal page: title, last-updated date, sections, links to the other policies. */
export async function LegalDocument({ slug }: { slug: LegalSlug }) {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("legal")]);
  const page = legalPage(slug, locale);
  return (
    <article className="mx-auto max-w-3xl px-4 py-8">
      <Link href="/" className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50">
        <ArrowLeft aria-hidden className="size-4" />
        {t("back")}
      </Link>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-4xl">{page.title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{t("updated")}</p>
      <p className="mt-6 text-lg leading-relaxed">{page.intro}</p>
      {page.sections.map((section) => (
        <section key={section.heading} className="mt-8">
          <h2 className="text-xl font-semibold">{section.heading}</h2>
          {section.paragraphs.map((p) => (
            <p key={p} className="mt-3 leading-relaxed text-muted-foreground">{p}</p>
          ))}
        </section>
      ))}
      <nav aria-label={t("otherPages")} className="mt-12 border-t pt-6">
        <h2 className="text-sm font-semibold">{t("otherPages")}</h2>
        <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {LEGAL_SLUGS.filter((s) => s !== slug).map((s) => (
            <li key={s}>
              <Link href={`/${s}`} className="underline underline-offset-4 hover:text-foreground">{legalPage(s, locale).title}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </article>
  );
}

export async function legalMetadata(slug: LegalSlug) {
  const locale = await getLocale();
  const page = legalPage(slug, locale);
  return { title: page.title, description: page.intro };
}
