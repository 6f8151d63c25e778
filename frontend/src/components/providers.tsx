"use client";

import { useSyncExternalStore } from "react";
import { SWRConfig } from "swr";
import { swrConfig } from "@/lib/api/fetcher";
import { LocaleSync } from "@/components/layout/locale-sync";
import dynamic from "next/dynamic";
import { isToasterWanted, subscribeToasterWanted } from "@/lib/notify";

// The toaster (sonner, and the styles it injects) loads with the first toast: evaluating it
// right after hydration was a long task of its own on a phone.
const Toaster = dynamic(() => import("@/components/ui/sonner").then((m) => m.Toaster), { ssr: false });

function LazyToaster() {
  const wanted = useSyncExternalStore(subscribeToasterWanted, isToasterWanted, () => false);
  return wanted ? <Toaster /> : null;
}

/** Client-wide providers: SWR with the spec's settings, the toaster, the stored language. */
export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <SWRConfig value={swrConfig}>
      {children}
      <LocaleSync />
      <LazyToaster />
    </SWRConfig>
  );
}
