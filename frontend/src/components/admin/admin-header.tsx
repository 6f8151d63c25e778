"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { ExternalLink, KeyRound, LogOut, MonitorSmartphone, Radio, ShieldCheck, UserRound } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LanguageToggle } from "@/components/layout/language-toggle";
import type { Session } from "@/lib/auth/session";
import type { LiveState } from "@/lib/admin/live";
import { isStaffRole } from "@/lib/admin/permissions";
import { cn } from "@/lib/utils";

const SignOutEverywhereDialog = dynamic(() => import("./sign-out-everywhere-dialog").then((m) => m.SignOutEverywhereDialog), { ssr: false });
const ChangePasswordDialog = dynamic(() => import("./password/change-password-dialog").then((m) => m.ChangePasswordDialog), { ssr: false });

/**
 * Title, the signed-in admin and their role, live state, ES/EN, changing one's password, logout
 * and logout on every device (SPEC §2 "Header").
 */
export function AdminHeader({
  session,
  live,
  onLogout,
  onLogoutEverywhere,
  onChangePassword,
}: {
  session: Session;
  /** Null: no live connection (the role does not see purchases). */
  live: LiveState | null;
  onLogout: () => void;
  /** Ends every session of the account (this one too); throws when the server could not. */
  onLogoutEverywhere: () => Promise<void>;
  /** Replaces the account's password, this page keeping a new token; throws the server's refusal. */
  onChangePassword: (currentPassword: string, newPassword: string) => Promise<void>;
}) {
  const t = useTranslations("admin.header");
  const roles = useTranslations("admin.staff.roles");
  const [open, setOpen] = useState<"everywhere" | "password" | null>(null);
  const role = session.user.staffRole;
  const liveLabel = live === "live" ? t("live") : live === "connecting" ? t("connecting") : t("offline");
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/85">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
        <div className="flex min-w-0 grow basis-60 items-center gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <ShieldCheck aria-hidden className="size-5" />
          </span>
          <div className="min-w-0">
            <h1 className="truncate text-lg font-bold leading-tight">{t("title")}</h1>
            <p className="flex items-center gap-1.5 truncate text-sm text-muted-foreground" data-testid="admin-username">
              <UserRound aria-hidden className="size-3.5 shrink-0" />
              {t("signedInAs", { name: session.user.username })}
              {isStaffRole(role) && (
                <Badge variant="secondary" className="hidden sm:inline-flex" data-testid="admin-role">
                  {roles(role)}
                </Badge>
              )}
            </p>
          </div>
        </div>
        <div className="flex items-center gap-2">
          {live && (
            <span
              role="status"
              data-testid="live-state"
              data-state={live}
              title={liveLabel}
              className={cn(
                "inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-xs font-medium",
                live === "live" ? "text-success-strong" : "text-muted-foreground",
              )}
            >
              <Radio aria-hidden className={cn("size-4", live === "connecting" && "animate-pulse")} />
              <span className="max-sm:sr-only">{liveLabel}</span>
            </span>
          )}
          <Button asChild variant="ghost" size="sm">
            <Link href="/" target="_blank" rel="noopener">
              <ExternalLink aria-hidden />
              <span className="max-sm:sr-only">{t("viewSite")}</span>
            </Link>
          </Button>
          <LanguageToggle />
          <Button type="button" variant="outline" size="sm" onClick={() => setOpen("password")} title={t("changePassword")} data-testid="change-password">
            <KeyRound aria-hidden />
            <span className="max-xl:sr-only">{t("changePassword")}</span>
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => setOpen("everywhere")} title={t("logoutEverywhere")} data-testid="logout-everywhere">
            <MonitorSmartphone aria-hidden />
            <span className="max-xl:sr-only">{t("logoutEverywhere")}</span>
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={onLogout} data-testid="logout">
            <LogOut aria-hidden />
            <span className="max-sm:sr-only">{t("logout")}</span>
          </Button>
        </div>
      </div>
      {open === "everywhere" && <SignOutEverywhereDialog onConfirm={onLogoutEverywhere} onClose={() => setOpen(null)} />}
      {open === "password" && <ChangePasswordDialog username={session.user.username} onSubmit={onChangePassword} onClose={() => setOpen(null)} />}
    </header>
  );
}
