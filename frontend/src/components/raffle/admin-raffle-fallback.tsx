"use client";

import Link from "next/link";
import dynamic from "next/dynamic";
import { useParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useIsAdmin } from "@/lib/auth/session";

// Every raffle page loads this not-found boundary's code, so the admin view (the whole raffle
// page again) is fetched only when a signed-in admin actually lands here.
const AdminRaffleView = dynamic(() => import("./admin-raffle-view").then((m) => m.AdminRaffleView), {
  ssr: false,
  loading: () => <AdminRaffleLoading />,
});

/**
 * A raffle the public cannot see (a draft): the not-found text for visitors, the admin view
 * (any status, test purchases) for a signed-in admin.
 */
export function AdminRaffleFallback() {
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? "") ? Number(params.id) : null;
  const isAdmin = useIsAdmin();
  const notFound = <RaffleNotFoundText />;
  if (isAdmin && id !== null) return <AdminRaffleView raffleId={id} notFound={notFound} />;
  return notFound;
}

/** While the admin view's code or the raffle loads. */
export function AdminRaffleLoading() {
  const tc = useTranslations("common");
  return <p role="status" className="mx-auto max-w-6xl px-4 py-24 text-muted-foreground">{tc("loading")}</p>;
}

function RaffleNotFoundText() {
  const t = useTranslations("raffle");
  const tc = useTranslations("common");
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <SearchX aria-hidden className="mb-6 size-12 text-muted-foreground" />
      <h1 className="text-2xl font-bold">{t("notFound")}</h1>
      <p className="mt-3 text-muted-foreground">{t("notFoundText")}</p>
      <Button asChild className="mt-6">
        <Link href="/sorteos">{tc("participateNow")}</Link>
      </Button>
    </section>
  );
}
