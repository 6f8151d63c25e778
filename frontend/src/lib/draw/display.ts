import { padTicket, ticketWidth } from "@/lib/format";

/**
 * A number of the draw as the site shows tickets, so a winner reads as on the buyer's receipt:
 * zero-padded to the raffle's ticket width ("0046"; 5 digits in a 99,999-number raffle).
 */
export function drawNumberLabel(number: number, maxTickets: number): string {
  return padTicket(number, ticketWidth(maxTickets));
}

/** A digest shortened for reading, its first and last 8 characters ("3f9a0c1e…77b2d4a0"); the full one is shown on request. */
export function shortHash(hex: string): string {
  return hex.length > 20 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex;
}

/** drand's "quicknet" chain, the beacon prizes name (decision 0020). */
const DRAND_QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";

/** drand's own record of a round (its randomness and signature), for anyone to compare with ours. */
export function drandRoundUrl(round: number): string {
  return `https://api.drand.sh/${DRAND_QUICKNET}/public/${round}`;
}

/** The clocks a lottery may draw on, as the server accepts them (prize.rs `TIME_ZONES`). */
export const LOTTERY_TIME_ZONES = [
  "America/Caracas",
  "America/Bogota",
  "America/Mexico_City",
  "America/Lima",
  "America/Guayaquil",
  "America/Panama",
  "America/Santo_Domingo",
  "America/Puerto_Rico",
  "America/Santiago",
  "America/Argentina/Buenos_Aires",
  "America/New_York",
  "America/Los_Angeles",
  "Europe/Madrid",
  "UTC",
] as const;

/** The zone a lottery draws in when none is chosen: the server's default. */
export const DEFAULT_LOTTERY_TIME_ZONE = LOTTERY_TIME_ZONES[0];

/** A zone's city as people name it: `America/Argentina/Buenos_Aires` → `Buenos Aires`. */
export function zoneCity(zone: string): string {
  return (zone.split("/").pop() ?? zone).replaceAll("_", " ");
}
