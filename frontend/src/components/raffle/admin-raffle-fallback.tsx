"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { useTranslations } from "next-intl";
import useSWR from "swr";
import { SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useIsAdmin } from "@/lib/auth/session";
import type { PaymentMethod, Promotion, Raffle } from "@/lib/api/types";
import { useAdminRaffle } from "@/lib/swr/use-admin-raffle";
import { RaffleOverview } from "./raffle-overview";
import { RaffleExperience } from "./raffle-experience";

/**
 * A raffle the public cannot see (a draft): the not-found text for visitors, the admin view
 * (any status, test purchases) for a signed-in admin.
 */
export function AdminRaffleFallback() {
  const t = useTranslations("raffle");
  const tc = useTranslations("common");
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? "") ? Number(params.id) : null;
  const isAdmin = useIsAdmin();
  const { data: raffle, isLoading } = useAdminRaffle(id, isAdmin);
  const { data: promotions = [] } = useSWR<Promotion[]>(raffle ? ["/api/admin/raffles", raffle.id, "promotions"] : null);
  const { data: methods = [] } = useSWR<PaymentMethod[]>(raffle ? "/api/payment-methods" : null);

  if (isAdmin && isLoading) {
    return <p role="status" className="mx-auto max-w-6xl px-4 py-24 text-muted-foreground">{tc("loading")}</p>;
  }
  if (isAdmin && raffle) {
    return <AdminRaffle raffle={raffle} promotions={promotions} methods={methods} />;
  }
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

function AdminRaffle({ raffle, promotions, methods }: { raffle: Raffle; promotions: Promotion[]; methods: PaymentMethod[] }) {
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 lg:grid-cols-[1fr_1.1fr] lg:items-start">
      <RaffleOverview raffle={raffle} promotions={promotions} />
      <RaffleExperience raffle={raffle} methods={methods} />
    </div>
  );
}
