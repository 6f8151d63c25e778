import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import { DrawVerification } from "@/components/draw/draw-verification";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ ref?: string | string[] }> };

/** A reference as the buyer's e-mail links it (`?ref=RF-…`); anything else is ignored. */
function referenceParam(ref: string | string[] | undefined): string | null {
  const value = Array.isArray(ref) ? ref[0] : ref;
  return value && /^[A-Za-z0-9-]{1,40}$/.test(value) ? value : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ id }, t] = await Promise.all([params, getTranslations("draw.verify")]);
  return { title: t("metaTitle"), description: t("subtitle"), alternates: { canonical: `/sorteo/${id}/verificacion` } };
}

/**
 * The public check of a raffle's draw. The server renders the frame only: the ledger is read and
 * checked by the browser, so the check does not rest on the operator's server. The draw's texts
 * reach the browser here only (the root layout keeps them server-side). A buyer arriving from
 * their e-mail (`?ref=RF-…`) sees their own numbers checked at once.
 */
export default async function DrawVerificationPage({ params, searchParams }: Props) {
  const [{ id }, { ref }] = await Promise.all([params, searchParams]);
  if (!/^\d{1,18}$/.test(id)) notFound();
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <NextIntlClientProvider locale={locale} messages={{ common: messages.common, draw: messages.draw }}>
        <DrawVerification raffleId={Number(id)} initialReference={referenceParam(ref)} />
      </NextIntlClientProvider>
    </div>
  );
}
