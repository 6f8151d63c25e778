import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { BuyerPurchase } from "@/components/buyer/buyer-purchase";
import { getBranding } from "@/lib/api/server";

type Props = { params: Promise<{ id: string }> };

/** A private page: never indexed, and its address is not sent on to pages it links to. */
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("buyerPage");
  return { title: t("metaTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/**
 * The buyer's own page, /compra/{id}#{key}. The server renders the frame only: the key is in
 * the fragment, which browsers never send, so the purchase is read by the browser.
 */
export default async function BuyerPurchasePage({ params }: Props) {
  const { id } = await params;
  const branding = await getBranding();
  const purchaseId = /^\d{1,18}$/.test(id) ? Number(id) : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <BuyerPurchase purchaseId={purchaseId} contact={{ email: branding?.contactEmail || null, whatsappUrl: branding?.whatsappUrl || null }} />
    </div>
  );
}
