import { cache } from "react";
import type { Branding, PaymentMethod, Promotion, PublicDraw, PublicWinner, Raffle, Winners } from "./types";

/** Where server components reach the API directly (the browser goes through the rewrites). */
export const API_ORIGIN = (process.env.RIFA_API_ORIGIN ?? "http://127.0.0.1:8080").replace(/\/$/, "");

export class ServerApiError extends Error {
  constructor(readonly status: number, path: string) {
    super(`${status}: GET ${path}`);
  }
}

async function get<T>(path: string, locale?: string): Promise<T> {
  const response = await fetch(`${API_ORIGIN}${path}`, {
    cache: "no-store",
    headers: locale ? { "Accept-Language": locale } : undefined,
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new ServerApiError(response.status, path);
  return (await response.json()) as T;
}

export const getRaffles = () => get<Raffle[]>("/api/raffles");
export const getPaymentMethods = () => get<PaymentMethod[]>("/api/payment-methods");

/** The raffle, or null when the API has none to show the public. */
export async function getRaffle(id: string): Promise<Raffle | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  try {
    return await get<Raffle>(`/api/raffles/${id}`);
  } catch (error) {
    if (error instanceof ServerApiError && error.status === 404) return null;
    throw error;
  }
}

export async function getPromotions(id: number): Promise<Promotion[]> {
  try {
    return await get<Promotion[]>(`/api/raffles/${id}/promotions`);
  } catch {
    return [];
  }
}

/**
 * A raffle's prizes and draw, or null when there are none to show: not public (404) or the API
 * failed. The raffle's page goes on without them.
 */
export async function getRaffleDraw(id: number): Promise<PublicDraw | null> {
  try {
    return await get<PublicDraw>(`/api/raffles/${id}/draw`);
  } catch {
    return null;
  }
}

/** The latest winners, newest first; none when the API failed (the home then leaves the section out). */
export async function getWinners(): Promise<PublicWinner[]> {
  try {
    return (await get<Winners>("/api/winners")).winners;
  } catch {
    return [];
  }
}

/** Branding, or null when the API cannot be reached (the default theme applies then). */
export const getBranding = cache(async (): Promise<Branding | null> => {
  try {
    return await get<Branding>("/api/branding");
  } catch {
    return null;
  }
});
