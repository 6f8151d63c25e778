"use client";

import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

function fragment(): string {
  const raw = window.location.hash.replace(/^#/, "");
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw.trim();
  }
}

/**
 * The URL's fragment (after `#`), read in the browser only: it never reaches a server, so it can
 * carry a secret such as a purchase's key. Null while rendering on the server and hydrating;
 * "" when the address has none.
 */
export function useUrlFragment(): string | null {
  return useSyncExternalStore(subscribe, fragment, () => null);
}
