"use client";

import { useSyncExternalStore } from "react";
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from "@/lib/api/fetcher";
import type { AuthUser } from "@/lib/api/types";
import { can } from "@/lib/admin/permissions";

/** The signed-in administrator kept in local storage (SPEC §3 "Logged-in user", §4 "Session"). */
export interface Session {
  token: string;
  user: AuthUser;
}

/** The `exp` claim (seconds) of a JWT, or null when it cannot be decoded. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const exp: unknown = JSON.parse(json).exp;
    return typeof exp === "number" ? exp : null;
  } catch {
    return null;
  }
}

export function isTokenValid(token: string, nowSeconds = Date.now() / 1000): boolean {
  const exp = tokenExpiry(token);
  return exp !== null && exp > nowSeconds;
}

const listeners = new Set<() => void>();
let cached: { raw: string; session: Session | null } | null = null;

/** Reads the stored session; an expired or undecodable token or corrupt user data clears it. */
export function readSession(): Session | null {
  let token: string | null;
  let rawUser: string | null;
  try {
    token = window.localStorage.getItem(AUTH_TOKEN_KEY);
    rawUser = window.localStorage.getItem(AUTH_USER_KEY);
  } catch {
    return null;
  }
  const raw = `${token ?? ""}\u0000${rawUser ?? ""}`;
  if (cached?.raw === raw) return cached.session;
  let session: Session | null = null;
  if (token && rawUser) {
    try {
      const user = JSON.parse(rawUser) as AuthUser;
      if (user && typeof user === "object" && isTokenValid(token)) session = { token, user };
      else clearSession(false);
    } catch {
      clearSession(false);
    }
  }
  cached = { raw, session };
  return session;
}

export function saveSession(session: Session): void {
  window.localStorage.setItem(AUTH_TOKEN_KEY, session.token);
  window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(session.user));
  listeners.forEach((l) => l());
}

export function clearSession(notify = true): void {
  try {
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
    window.localStorage.removeItem(AUTH_USER_KEY);
  } catch {
    // nothing stored to clear
  }
  if (notify) listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === AUTH_TOKEN_KEY || event.key === AUTH_USER_KEY || event.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The admin session in this browser; null on the server and for visitors. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, readSession, () => null);
}

/** Whether the viewer is a signed-in administrator (role admin): any staff role sees hidden raffles. */
export function useIsAdmin(): boolean {
  const session = useSession();
  return session?.user.role === "admin";
}

/** Whether the viewer may run test purchases: a staff role with the catalogue permission (decision 0023). */
export function useCanTestPurchase(): boolean {
  const session = useSession();
  return session?.user.role === "admin" && can(session.user, "catalogue");
}
