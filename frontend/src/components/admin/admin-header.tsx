"use client";

import { useState } from "react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { ExternalLink, LogOut, MonitorSmartphone, Radio, ShieldCheck, UserRound } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LanguageToggle } from "@/components/layout/language-toggle";
import type { Session } from "@/lib/auth/session";
import type { LiveState } from "@/lib/admin/live";
import { cn } from "@/lib/utils";

const SignOutEverywhereDialog = dynamic(() => import("./sign-out-everywhere-dialog").then((m) => m.SignOutEverywhereDialog), { ssr: false });

/** Title, the signed-in admin, live state, ES/EN, logout and logout on every device (SPEC §2 "Header"). */
export function AdminHeader({
  session,
  live,
  onLogout,
  onLogoutEverywhere,
}: {
  session: Session;
  live: LiveState;
  onLogout: () => void;
  /** Ends every session of the account (this one too); throws when the server could not. */
  onLogoutEverywhere: () => Promise<void>;
}) {
  const t = useTranslations("admin.header");
  const [confirming, setConfirming] = useState(false);
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
              {session.user.privileged && (
                <Badge variant="secondary" className="hidden sm:inline-flex">
                  {t("privileged")}
                </Badge>
              )}
            </p>
          </div>
        </div>
        <div className="flex items-center gap-2">
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
          <Button asChild variant="ghost" size="sm">
            <Link href="/" target="_blank" rel="noopener">
              <ExternalLink aria-hidden />
              <span className="max-sm:sr-only">{t("viewSite")}</span>
            </Link>
          </Button>
          <LanguageToggle />
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirming(true)} title={t("logoutEverywhere")} data-testid="logout-everywhere">
            <MonitorSmartphone aria-hidden />
            <span className="max-xl:sr-only">{t("logoutEverywhere")}</span>
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={onLogout} data-testid="logout">
            <LogOut aria-hidden />
            <span className="max-sm:sr-only">{t("logout")}</span>
          </Button>
        </div>
      </div>
      {confirming && <SignOutEverywhereDialog onConfirm={onLogoutEverywhere} onClose={() => setConfirming(false)} />}
    </header>
  );
}
