"use client";

import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { clearSession, tokenExpiry, useSession, type Session } from "@/lib/auth/session";
import { isAdminUser } from "@/lib/admin/role";
import { notify } from "@/lib/notify";

const noop = () => () => {};

/** False during the server render and hydration, true once local storage can be read. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noop, () => true, () => false);
}

/** The stored session when it is an administrator's (SPEC §6: role admin), else null. */
export function useAdminSession(): Session | null {
  const session = useSession();
  return session && isAdminUser(session.user) ? session : null;
}

/** Longest setTimeout delay browsers honour (about 24.8 days). */
const MAX_TIMER = 2_147_483_647;

/**
 * The admin session for the panel: null until hydrated or when signed out. Sends a signed-out
 * visitor to the login page, and signs the admin out when the token's `exp` passes.
 */
export function useRequiredSession(): { session: Session | null; logout: (reason?: "user" | "expired") => void } {
  const hydrated = useHydrated();
  // Any other stored user (a role other than admin) is no session for the panel.
  const session = useAdminSession();
  const router = useRouter();
  const t = useTranslations("admin.session");

  // Set when this page signs out on purpose, so the watcher below does not toast twice.
  const deliberate = useRef(false);
  const logout = useCallback(
    (reason: "user" | "expired" = "user") => {
      deliberate.current = true;
      clearSession();
      router.replace("/admin/login");
      if (reason === "user") notify.success(t("loggedOutTitle"), { description: t("loggedOut"), id: "session" });
      else notify.warning(t("expiredTitle"), { description: t("expired"), id: "session" });
    },
    [router, t],
  );

  // The session vanished without a logout here (a refused call dropped it, or another tab
  // signed out): say so on the way to the login page.
  const previous = useRef<Session | null>(null);
  useEffect(() => {
    if (previous.current && !session && !deliberate.current) {
      notify.warning(t("expiredTitle"), { description: t("expired"), id: "session" });
    }
    previous.current = session;
    if (hydrated && !session) router.replace("/admin/login");
  }, [hydrated, session, router, t]);

  const token = session?.token;
  useEffect(() => {
    if (!token) return;
    const exp = tokenExpiry(token);
    if (exp === null) return;
    const timer = window.setTimeout(() => logout("expired"), Math.min(MAX_TIMER, Math.max(0, exp * 1000 - Date.now())));
    return () => window.clearTimeout(timer);
  }, [token, logout]);

  return { session: hydrated ? session : null, logout };
}
