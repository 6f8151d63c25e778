import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { SiteShell } from "@/components/layout/site-shell";

export const metadata = { title: "Page not found", robots: { index: false } };

export default async function NotFound() {
  const t = await getTranslations("notFound");
  return (
    <SiteShell>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <SearchX aria-hidden className="mb-6 size-14 text-muted-foreground" />
        <p className="text-sm font-semibold text-muted-foreground">404</p>
        {/* The spec's text, in both languages. */}
        <h1 lang="en" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          {t("title")}
        </h1>
        <p className="mt-4 text-muted-foreground">{t("text")}</p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link href="/">{t("home")}</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link href="/sorteos">{t("raffles")}</Link>
          </Button>
        </div>
      </section>
    </SiteShell>
  );
}
