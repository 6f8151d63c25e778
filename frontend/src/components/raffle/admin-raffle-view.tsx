"use client";

import { usePaymentMethods } from "@/lib/swr/use-payment-methods";
import { useAdminPromotions, useAdminRaffle } from "@/lib/swr/use-raffles";
import { RaffleOverview } from "./raffle-overview";
import { RaffleExperience } from "./raffle-experience";
import { AdminRaffleLoading } from "./admin-raffle-fallback";

/** The admin's view of a raffle the public cannot see; `notFound` when the admin API has none. */
export function AdminRaffleView({ raffleId, notFound }: { raffleId: number; notFound: React.ReactNode }) {
  const { data: raffle, isLoading } = useAdminRaffle(raffleId, true);
  const { data: promotions = [] } = useAdminPromotions(raffle ? raffle.id : null);
  const { data: methods = [] } = usePaymentMethods(undefined, raffle !== undefined);

  if (isLoading) return <AdminRaffleLoading />;
  if (!raffle) return notFound;
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 lg:grid-cols-[1fr_1.1fr] lg:items-start">
      <RaffleOverview raffle={raffle} promotions={promotions} />
      <RaffleExperience raffle={raffle} methods={methods} />
    </div>
  );
}
