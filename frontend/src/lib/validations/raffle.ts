import { z } from "zod";
import { endOfDayUtc } from "@/lib/admin/dates";
import type { RaffleInput } from "@/lib/api/admin";

/** Raffle form rules (SPEC §5 "Raffle form", §9). */
export const RAFFLE_DEFAULTS = { price: "13", maxTickets: "9999", status: "available", holdMinutes: "30", salesCloseHoursBeforeDraw: "0" } as const;
export const MAX_TICKETS_LIMIT = 99_999;
/** How long a purchase without a proof may hold its numbers: 1 minute to 7 days (the API's range). */
export const HOLD_MINUTES = { min: 1, max: 10_080 } as const;
/** Sales close up to 30 days before the draw. */
export const CLOSE_HOURS = { min: 0, max: 720 } as const;
/** SPEC §5: the end date is always sent as 1 September 2025 (a new raffle's). */
export const FIXED_END_DATE = "2025-09-01T00:00:00.000Z";
export const RAFFLE_STATUSES = ["available", "inactive", "completed", "finished", "postponed"] as const;

export interface RaffleDraft {
  title: string;
  description: string;
  price: string;
  maxTickets: string;
  minTicketsPerPurchase: string;
  maxTicketsPerPurchase: string;
  drawDate: string;
  status: string;
  image: string;
  holdMinutes: string;
  salesCloseHoursBeforeDraw: string;
}

export interface RaffleMessages {
  required: string;
  priceMin: string;
  priceStep: string;
  maxTicketsRange: string;
  limitMin: string;
  limitsOrder: string;
  /** The server's outOfRange words for 1–10,080 minutes and 0–720 hours. */
  holdMinutesRange: string;
  closeHoursRange: string;
}

type RaffleErrors = Partial<Record<keyof RaffleDraft, string>>;

const isInt = (v: string) => /^\d+$/.test(v.trim());

/** Field errors of a draft; empty when it may be sent. */
export function validateRaffle(d: RaffleDraft, m: RaffleMessages): RaffleErrors {
  const e: RaffleErrors = {};
  if (!d.title.trim()) e.title = m.required;
  if (!d.description.trim()) e.description = m.required;
  if (!d.drawDate) e.drawDate = m.required;
  const price = d.price.trim().replace(",", ".");
  if (!price) e.price = m.required;
  else if (!/^\d+(\.\d+)?$/.test(price) || Number(price) < 0.01) e.price = m.priceMin;
  else if (!/^\d+(\.\d{1,2})?$/.test(price)) e.price = m.priceStep;
  if (!isInt(d.maxTickets) || Number(d.maxTickets) < 1 || Number(d.maxTickets) > MAX_TICKETS_LIMIT) e.maxTickets = m.maxTicketsRange;
  for (const key of ["minTicketsPerPurchase", "maxTicketsPerPurchase"] as const) {
    const v = d[key].trim();
    if (v && (!isInt(v) || Number(v) < 1)) e[key] = m.limitMin;
  }
  const inRange = (v: string, range: { min: number; max: number }) => isInt(v) && Number(v) >= range.min && Number(v) <= range.max;
  if (!inRange(d.holdMinutes, HOLD_MINUTES)) e.holdMinutes = m.holdMinutesRange;
  if (!inRange(d.salesCloseHoursBeforeDraw, CLOSE_HOURS)) e.salesCloseHoursBeforeDraw = m.closeHoursRange;
  const min = d.minTicketsPerPurchase.trim();
  const max = d.maxTicketsPerPurchase.trim();
  if (!e.minTicketsPerPurchase && !e.maxTicketsPerPurchase && min && max && Number(min) > Number(max)) e.minTicketsPerPurchase = m.limitsOrder;
  return e;
}

/** The request body: trimmed text, empty limits as null, the draw date as the end of that day in UTC. */
export function raffleInput(d: RaffleDraft, endDate: string | null): RaffleInput {
  const limit = (v: string) => (v.trim() ? Number(v.trim()) : null);
  return {
    title: d.title.trim(),
    description: d.description.trim(),
    price: Number(d.price.trim().replace(",", ".")),
    maxTickets: Number(d.maxTickets),
    minTicketsPerPurchase: limit(d.minTicketsPerPurchase),
    maxTicketsPerPurchase: limit(d.maxTicketsPerPurchase),
    drawDate: endOfDayUtc(d.drawDate),
    endDate: endDate ?? FIXED_END_DATE,
    status: d.status,
    image: d.image.trim(),
    holdMinutes: Number(d.holdMinutes.trim()),
    salesCloseHoursBeforeDraw: Number(d.salesCloseHoursBeforeDraw.trim()),
  };
}

/** The raffle form's schema: `validateRaffle`'s rules, each message on its field. */
export function raffleSchema(m: RaffleMessages) {
  return z
    .object({
      title: z.string(),
      description: z.string(),
      price: z.string(),
      maxTickets: z.string(),
      minTicketsPerPurchase: z.string(),
      maxTicketsPerPurchase: z.string(),
      drawDate: z.string(),
      status: z.string(),
      image: z.string(),
      holdMinutes: z.string(),
      salesCloseHoursBeforeDraw: z.string(),
    })
    .superRefine((draft, ctx) => {
      for (const [field, message] of Object.entries(validateRaffle(draft, m))) ctx.addIssue({ code: "custom", path: [field], message });
    });
}
