"use client";

import useSWR from "swr";
import type { Raffle } from "@/lib/api/types";
import { HomeRaffles } from "./home-raffles";

/** The admin list of raffles on the home page; the public list (`fallback`) until it arrives. */
export function AdminHomeRaffles({ fallback }: { fallback: React.ReactNode }) {
  const { data } = useSWR<Raffle[]>("/api/admin/raffles");
  return data ? <HomeRaffles raffles={data} /> : fallback;
}
