"use client";

import { useCallback, useState, useSyncExternalStore } from "react";
import { TICK_MS, clockOffset } from "@/lib/countdown";

function subscribeToClock(onTick: () => void): () => void {
  const id = window.setInterval(onTick, TICK_MS);
  return () => window.clearInterval(id);
}

const toTick = (ms: number) => Math.floor(ms / TICK_MS) * TICK_MS;

/** The offset of `serverTime` as measured now (0 while rendering on the server). */
function measure(serverTime: string | null | undefined): number {
  return typeof window === "undefined" ? 0 : clockOffset(serverTime, Date.now());
}

/**
 * The server's "now" to the second (ms), ticking every second: this browser's clock corrected
 * by the `serverTime` of the answer on screen, measured when that answer first rendered here.
 * While rendering on the server and hydrating it is `renderedAt` (the same on both sides: no
 * mismatch), or null when unknown.
 */
export function useServerNow(serverTime: string | null | undefined, renderedAt: number | null = null): number | null {
  const [clock, setClock] = useState(() => ({ serverTime, offset: measure(serverTime) }));
  // A new answer (a refresh) brings a new server time: measure again.
  if (clock.serverTime !== serverTime) setClock({ serverTime, offset: measure(serverTime) });
  const { offset } = clock;
  const snapshot = useCallback(() => toTick(Date.now() + offset), [offset]);
  const serverNow = renderedAt === null ? null : toTick(renderedAt);
  return useSyncExternalStore(subscribeToClock, snapshot, () => serverNow);
}
