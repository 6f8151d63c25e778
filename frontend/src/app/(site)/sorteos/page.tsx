import Link from "next/link";
import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { ArrowLeft, Sparkles, Ticket, Trophy, Users, Award } from "lucide-react";
import { RaffleCard } from "@/components/raffle/raffle-card";
import { AdminHiddenRaffles } from "@/components/raffle/admin-hidden-raffles";
import { RafflesUnavailable } from "@/components/raffle/raffles-unavailable";
import { getBranding, getRaffles } from "@/lib/api/server";
import { formatAtLeast, formatNumber } from "@/lib/format";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("sorteos");
  return { title: t("title"), description: t("subtitle") };
}

export default async function RafflesPage() {
  const [raffles, branding, t, tc, locale] = await Promise.all([
    getRaffles().catch(() => null),
    getBranding(),
    getTranslations("sorteos"),
    getTranslations("common"),
    getLocale(),
  ]);
  // The count is unknown, not 0, when the API did not answer.
  const stats = [
    { icon: <Ticket aria-hidden />, value: raffles ? formatNumber(raffles.length, locale) : "–", label: t("statRaffles") },
    // The operator's figures (branding); without the API there are none to claim.
    ...(branding
      ? [
          { icon: <Trophy aria-hidden />, value: branding.rafflesPagePrizes, label: t("statPrizes") },
          { icon: <Users aria-hidden />, value: formatAtLeast(branding.rafflesPageParticipants, locale), label: t("statParticipants") },
          { icon: <Award aria-hidden />, value: formatAtLeast(branding.rafflesPageWinners, locale), label: t("statWinners") },
        ]
      : []),
  ];
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <Link href="/" className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50">
        <ArrowLeft aria-hidden className="size-4" />
        {tc("backHome")}
      </Link>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-4xl">{t("title")}</h1>
      <p className="mt-2 text-muted-foreground">{t("subtitle")}</p>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((s) => (
          <li key={s.label} className="flex items-center gap-3 rounded-xl border bg-card p-4 shadow-sm">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary [&_svg]:size-5">{s.icon}</span>
            <p className="flex min-w-0 flex-col">
              <span className="text-xl font-bold">{s.value}</span>
              <span className="truncate text-xs text-muted-foreground">{s.label}</span>
            </p>
          </li>
        ))}
      </ul>
      <div className="mt-10">
        {raffles === null ? (
          <RafflesUnavailable href="/sorteos" />
        ) : raffles.length === 0 ? (
          <div className="rounded-xl border border-dashed p-10 text-center" data-testid="sorteos-empty">
            <Sparkles aria-hidden className="mx-auto mb-3 size-8 text-muted-foreground" />
            <h2 className="text-lg font-semibold">{t("emptyTitle")}</h2>
            <p className="mx-auto mt-2 max-w-md text-muted-foreground">{t("emptyText")}</p>
          </div>
        ) : (
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {raffles.map((raffle, i) => (
              <RaffleCard key={raffle.id} raffle={raffle} showActive priority={i === 0} />
            ))}
          </div>
        )}
        <AdminHiddenRaffles publicIds={raffles?.map((r) => r.id) ?? []} />
      </div>
    </div>
  );
}
