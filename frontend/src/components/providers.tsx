"use client";

import { SWRConfig } from "swr";
import { swrConfig } from "@/lib/api/fetcher";
import { LocaleSync } from "@/components/layout/locale-sync";
import dynamic from "next/dynamic";

// The toaster (and sonner) load after hydration, outside the first-load JavaScript.
const Toaster = dynamic(() => import("@/components/ui/sonner").then((m) => m.Toaster), { ssr: false });

/** Client-wide providers: SWR with the spec's settings, the toaster, the stored language. */
export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <SWRConfig value={swrConfig}>
      {children}
      <LocaleSync />
      <Toaster />
    </SWRConfig>
  );
}
