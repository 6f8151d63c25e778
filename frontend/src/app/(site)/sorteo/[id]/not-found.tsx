import { AdminRaffleFallback } from "@/components/raffle/admin-raffle-fallback";

/** No public raffle with this id: visitors see the not-found text; an admin may still open it. */
export default function RaffleNotFound() {
  return <AdminRaffleFallback />;
}
