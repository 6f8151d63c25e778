"use client";

import { useAdminRaffles } from "@/lib/swr/use-raffles";
import { HomeRaffles } from "./home-raffles";

/** The admin list of raffles on the home page; the public list (`fallback`) until it arrives. */
export function AdminHomeRaffles({ fallback }: { fallback: React.ReactNode }) {
  const { data } = useAdminRaffles();
  return data ? <HomeRaffles raffles={data} /> : fallback;
}
