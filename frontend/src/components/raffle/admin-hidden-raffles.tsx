"use client";

import dynamic from "next/dynamic";
import { useIsAdmin } from "@/lib/auth/session";

const List = dynamic(() => import("./admin-hidden-raffles-list").then((m) => m.AdminHiddenRafflesList), { ssr: false });

/**
 * For a signed-in admin, the raffles the public list leaves out (SPEC §4: admins get the admin
 * list). Visitors load nothing of it: the list is a separate chunk fetched only for admins.
 */
export function AdminHiddenRaffles({ publicIds }: { publicIds: number[] }) {
  const isAdmin = useIsAdmin();
  return isAdmin ? <List publicIds={publicIds} /> : null;
}
