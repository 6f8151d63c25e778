"use client";

import dynamic from "next/dynamic";
import { useIsAdmin } from "@/lib/auth/session";

const AdminList = dynamic(() => import("./admin-home-raffles").then((m) => m.AdminHomeRaffles), { ssr: false });

/**
 * The home page's raffles: the public list as the server rendered it (`children`) for visitors,
 * the admin list (any status) for a signed-in admin (SPEC §4). Visitors load nothing of it.
 */
export function HomeRafflesForViewer({ children }: { children: React.ReactNode }) {
  const isAdmin = useIsAdmin();
  return isAdmin ? <AdminList fallback={children} /> : children;
}
