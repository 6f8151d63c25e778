import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ArrowRight, ChevronDown, ExternalLink, Globe2, ShieldCheck, Trophy, Users } from "lucide-react";
import { Button } from "@/components/ui/button";
import { HomeRaffles } from "@/components/home/home-raffles";
import { HomeRafflesForViewer } from "@/components/home/home-raffles-for-viewer";
import { HomeWinners } from "@/components/home/home-winners";
import { PaymentMethodsSection } from "@/components/home/payment-methods-section";
import { VideoEmbed } from "@/components/home/video-embed";
import { TicketVerification } from "@/components/verify/ticket-verification";
import { SectionLink } from "@/components/layout/section-link";
import { getBranding, getPaymentMethods, getRaffles, getWinners } from "@/lib/api/server";
import { companyName } from "@/lib/theme";
import { formatAtLeast } from "@/lib/format";

export const dynamic = "force-dynamic";

const FAQ = [
  { category: "company", questions: ["whatIs", "isCasino"] },
  { category: "purchase", questions: ["howToBuy", "howMany", "methods", "anyCountry"] },
  { category: "prizes", questions: ["where", "delivery", "chosen", "howKnow"] },
  { category: "policies", questions: ["refunds", "transfer"] },
  { category: "security", questions: ["legal", "data"] },
] as const;

function Stat({ icon, value, label }: { icon: React.ReactNode; value: string; label: string }) {
  // Narrow tiles at 360 px (three in a row): smaller figure and side padding so "50.000+" fits.
  return (
    <div className="rounded-xl border bg-card/80 px-2 py-4 text-center shadow-sm sm:p-4" data-testid="stat-tile">
      <div className="mx-auto mb-2 flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary [&_svg]:size-5">{icon}</div>
      <p className="text-xl font-bold tracking-tight sm:text-2xl" data-testid="stat-value">{value}</p>
      <p className="text-xs text-muted-foreground sm:text-sm">{label}</p>
    </div>
  );
}

export default async function HomePage() {
  const [raffles, methods, winners, branding, t, locale] = await Promise.all([
    // null: the API did not answer, which the raffles section says instead of showing none.
    getRaffles().catch(() => null),
    getPaymentMethods().catch(() => []),
    getWinners(),
    getBranding(),
    getTranslations(),
    getLocale(),
  ]);
  const name = companyName(branding);
  // The operator's figures (branding); without the API there are none to claim.
  const stats = branding && [
    { icon: <Users aria-hidden />, value: formatAtLeast(branding.participants, locale), key: "statParticipants" as const },
    { icon: <Trophy aria-hidden />, value: branding.prizes, key: "statPrizes" as const },
    { icon: <Globe2 aria-hidden />, value: formatAtLeast(branding.countries, locale), key: "statCountries" as const },
  ];

  return (
    <>
      {/* Hero */}
      <section className="relative overflow-hidden border-b bg-gradient-to-b from-secondary to-background">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:py-20 lg:grid-cols-[1.2fr_1fr] lg:items-center">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs font-medium">
              <ShieldCheck aria-hidden className="size-4 text-success-strong" />
              {t("hero.badge")}
            </p>
            <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{t("hero.title")}</h1>
            <p className="mt-4 max-w-xl text-lg text-muted-foreground">{branding?.description || t("hero.subtitle")}</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link href="/sorteos">
                  {t("hero.cta")}
                  <ArrowRight aria-hidden />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <SectionLink section="verificar">{t("hero.secondary")}</SectionLink>
              </Button>
            </div>
          </div>
          {stats && (
            <div className="grid grid-cols-3 gap-3">
              {stats.map((s) => (
                <Stat key={s.key} icon={s.icon} value={s.value} label={t(`hero.${s.key}`)} />
              ))}
            </div>
          )}
        </div>
      </section>

      <HomeRafflesForViewer>
        <HomeRaffles raffles={raffles} />
      </HomeRafflesForViewer>

      <HomeWinners winners={winners} />

      {/* How to win */}
      <section id="como-ser-un-ganador" aria-labelledby="howto-title" className="scroll-mt-20 border-y bg-muted/40">
        <span id="como-jugar" className="block scroll-mt-20" aria-hidden />
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="howto-title" className="text-2xl font-bold tracking-tight sm:text-3xl">{t("howTo.title")}</h2>
          <p className="mt-2 text-muted-foreground">{t("howTo.subtitle")}</p>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {[1, 2, 3].map((n) => (
              <li key={n} className="flex flex-col gap-4 rounded-xl border bg-card p-5 shadow-sm">
                <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{t("howTo.step", { n })}</p>
                <h3 className="-mt-2 text-lg font-semibold">{t(`howTo.step${n as 1 | 2 | 3}Title`)}</h3>
                <p className="text-sm text-muted-foreground">{t(`howTo.step${n as 1 | 2 | 3}Text`)}</p>
                {n < 3
                  ? branding?.videoUrls[n - 1] && <VideoEmbed src={branding.videoUrls[n - 1] as string} title={t(`howTo.videoTitle${n as 1 | 2}`)} />
                  : branding?.lotteryResultsUrl && (
                      <Button asChild variant="outline" className="mt-auto">
                        <a href={branding.lotteryResultsUrl} target="_blank" rel="noopener noreferrer">
                          {t("howTo.results")}
                          <ExternalLink aria-hidden />
                        </a>
                      </Button>
                    )}
              </li>
            ))}
          </ol>
        </div>
      </section>

      {/* Ticket verification */}
      <section id="verificar" aria-labelledby="verify-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
        <div className="mb-8 max-w-2xl">
          <h2 id="verify-title" className="text-2xl font-bold tracking-tight sm:text-3xl">{t("verify.title")}</h2>
          <p className="mt-2 text-muted-foreground">{t("verify.subtitle")}</p>
        </div>
        <TicketVerification />
      </section>

      <PaymentMethodsSection methods={methods} supportUrl={branding?.whatsappUrl ?? ""} />

      {/* FAQ */}
      <section id="faq" aria-labelledby="faq-title" className="scroll-mt-20 border-y bg-muted/40">
        <div className="mx-auto max-w-4xl px-4 py-16">
          <h2 id="faq-title" className="text-2xl font-bold tracking-tight sm:text-3xl">{t("faq.title")}</h2>
          <p className="mt-2 text-muted-foreground">{t("faq.subtitle")}</p>
          {stats && (
            <div className="mt-8 grid grid-cols-3 gap-3">
              {stats.map((s) => (
                <Stat key={s.key} icon={s.icon} value={s.value} label={t(`faq.${s.key}`)} />
              ))}
            </div>
          )}
          <div className="mt-10 space-y-8">
            {FAQ.map((group) => (
              <div key={group.category}>
                <h3 className="mb-2 text-lg font-semibold">{t(`faq.categories.${group.category}`)}</h3>
                {/* Native disclosure: an accordion that needs no JavaScript on a slow phone. */}
                <div className="divide-y rounded-xl border bg-card px-5">
                  {group.questions.map((q) => (
                    <details key={q} className="group">
                      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-md py-4 text-sm font-medium outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
                        {t(`faq.q.${q}`, { company: name })}
                        <ChevronDown aria-hidden className="size-4 shrink-0 translate-y-0.5 text-muted-foreground transition-transform group-open:rotate-180" />
                      </summary>
                      <p className="pb-4 text-sm leading-relaxed text-muted-foreground">{t(`faq.a.${q}`, { company: name })}</p>
                    </details>
                  ))}
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      {/* Final call to action */}
      <section className="mx-auto max-w-6xl px-4 py-16">
        <div className="rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground sm:px-12">
          <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("cta.title")}</h2>
          <p className="mx-auto mt-3 max-w-xl opacity-90">{t("cta.text")}</p>
          <Button asChild size="lg" variant="secondary" className="mt-6">
            <Link href="/sorteos">
              {t("cta.button")}
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </section>
    </>
  );
}
