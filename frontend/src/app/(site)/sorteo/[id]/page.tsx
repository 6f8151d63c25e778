import { Suspense } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { RaffleOverview } from "@/components/raffle/raffle-overview";
import { RaffleExperience } from "@/components/raffle/raffle-experience";
import { RaffleDrawSection } from "@/components/draw/raffle-draw-section";
import { getPaymentMethods, getPromotions, getRaffle } from "@/lib/api/server";
import { formatDate, formatUsd } from "@/lib/format";

type Props = { params: Promise<{ id: string }> };

/** The time of this request: the page renders the countdown (and a closed raffle) as of now. */
const requestTime = () => Date.now();

/** Open Graph and Twitter tags, so a link shared on WhatsApp or Instagram shows a rich preview. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const raffle = await getRaffle(id);
  if (!raffle) return { title: "404", robots: { index: false } };
  const [t, locale] = await Promise.all([getTranslations("meta"), getLocale()]);
  const price = t("rafflePrice", { price: formatUsd(raffle.price, locale) });
  const draw = raffle.drawDate ? t("raffleDraw", { date: formatDate(raffle.drawDate, locale) }) : null;
  const summary = [price, draw].filter(Boolean).join(" · ");
  const description = `${summary}. ${raffle.description}`.slice(0, 200);
  return {
    title: raffle.title,
    description,
    alternates: { canonical: `/sorteo/${raffle.id}` },
    openGraph: {
      type: "website",
      title: `${raffle.title} · ${summary}`,
      description,
      url: `/sorteo/${raffle.id}`,
      images: [{ url: raffle.image, width: 1200, height: 750, alt: raffle.title }],
    },
    twitter: {
      card: "summary_large_image",
      title: `${raffle.title} · ${summary}`,
      description,
      images: [raffle.image],
    },
    other: {
      "product:price:amount": raffle.price,
      "product:price:currency": "USD",
      ...(raffle.drawDate ? { "rifa:draw_date": raffle.drawDate } : {}),
    },
  };
}

export default async function RafflePage({ params }: Props) {
  const { id } = await params;
  const raffle = await getRaffle(id);
  if (!raffle) notFound();
  const [promotions, methods] = await Promise.all([getPromotions(raffle.id), getPaymentMethods().catch(() => [])]);
  return (
    <>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 lg:grid-cols-[1fr_1.1fr] lg:items-start">
        <RaffleOverview raffle={raffle} promotions={promotions} />
        <RaffleExperience raffle={raffle} methods={methods} renderedAt={requestTime()} />
      </div>
      {/* Below the purchase, full width; streamed after it, so a slow answer never holds the sale up. */}
      <Suspense fallback={null}>
        <RaffleDrawSection raffleId={raffle.id} />
      </Suspense>
    </>
  );
}
