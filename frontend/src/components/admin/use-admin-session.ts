"use client";

import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { changePassword, endEverySession, endSession } from "@/lib/api/admin";
import { ApiError } from "@/lib/api/fetcher";
import { clearSession, saveSession, tokenExpiry, useSession, type Session } from "@/lib/auth/session";
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

/** Why the panel signs out: the admin asked (here, or on every device), or the token stopped working. */
export type LogoutReason = "user" | "everywhere" | "expired";

export interface RequiredSession {
  session: Session | null;
  logout: (reason?: LogoutReason) => void;
  /**
   * Ends every session of the account on the server, then signs out here. Throws when the server
   * could not do it (the admin stays signed in to try again); a session already ended signs out.
   */
  logoutEverywhere: () => Promise<void>;
  /**
   * Replaces the account's own password and keeps this page signed in with the new token the
   * answer carries (every other session of the account ends). Throws the server's refusal.
   */
  changeOwnPassword: (currentPassword: string, newPassword: string) => Promise<void>;
}

/**
 * The admin session for the panel: null until hydrated or when signed out. Sends a signed-out
 * visitor to the login page, and signs the admin out when the token's `exp` passes.
 */
export function useRequiredSession(): RequiredSession {
  const hydrated = useHydrated();
  // Any other stored user (a role other than admin) is no session for the panel.
  const session = useAdminSession();
  const router = useRouter();
  const t = useTranslations("admin.session");

  // Set when this page signs out on purpose, so the watcher below does not toast twice.
  const deliberate = useRef(false);
  // Set while every session is being ended: this page's own live connection is refused meanwhile,
  // which is no expiry (the sign-out that follows says what happened).
  const endingEverywhere = useRef(false);
  // Set while the password changes: the server ends every session of the account, this one's
  // live connection and reads in flight too, before its answer brings this page a new token.
  const replacingToken = useRef(false);
  const logout = useCallback(
    (reason: LogoutReason = "user") => {
      if (reason === "expired" && (endingEverywhere.current || replacingToken.current)) return;
      // Best effort: the request carries the token (read before it is cleared below), and the
      // browser forgets the session whatever the server answers, or if it never does.
      if (reason === "user") endSession().catch(() => undefined);
      deliberate.current = true;
      clearSession();
      router.replace("/admin/login");
      if (reason === "user") notify.success(t("loggedOutTitle"), { description: t("loggedOut"), id: "session" });
      else if (reason === "everywhere") notify.success(t("everywhereTitle"), { description: t("everywhere"), id: "session" });
      else notify.warning(t("expiredTitle"), { description: t("expired"), id: "session" });
    },
    [router, t],
  );

  const logoutEverywhere = useCallback(async () => {
    endingEverywhere.current = true;
    try {
      await endEverySession();
    } catch (error) {
      endingEverywhere.current = false;
      // This session had already ended: nothing is left to sign out but this browser.
      if (error instanceof ApiError && error.status === 401) {
        logout("expired");
        return;
      }
      throw error;
    }
    endingEverywhere.current = false;
    logout("everywhere");
  }, [logout]);

  const changeOwnPassword = useCallback(async (currentPassword: string, newPassword: string) => {
    replacingToken.current = true;
    try {
      const answer = await changePassword(currentPassword, newPassword);
      saveSession({ token: answer.token, user: answer.user });
    } finally {
      replacingToken.current = false;
    }
  }, []);

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

  return { session: hydrated ? session : null, logout, logoutEverywhere, changeOwnPassword };
}
