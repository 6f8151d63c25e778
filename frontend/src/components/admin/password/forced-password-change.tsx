"use client";

import { useTranslations } from "next-intl";
import { KeyRound, Loader2, LogOut } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LanguageToggle } from "@/components/layout/language-toggle";
import type { Session } from "@/lib/auth/session";
import { PasswordChangeForm } from "./password-form";

/**
 * What an account holding a password an owner handed over sees instead of the panel: the server
 * allows it nothing but choosing its own. Once saved, the session's user has its role's
 * permissions again and the panel shows its tabs.
 */
export function ForcedPasswordChange({
  session,
  onSubmit,
  onLogout,
}: {
  session: Session;
  onSubmit: (currentPassword: string, newPassword: string) => Promise<void>;
  onLogout: () => void;
}) {
  const t = useTranslations("admin.password");
  const th = useTranslations("admin.header");
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="mb-4 flex w-full max-w-md items-center justify-between gap-2">
        <p className="min-w-0 truncate text-sm font-semibold">{th("title")}</p>
        <LanguageToggle />
      </div>
      <Card className="w-full max-w-md" data-testid="forced-password-change">
        <CardHeader>
          <div className="mb-2 flex size-11 items-center justify-center rounded-full bg-primary text-primary-foreground">
            <KeyRound aria-hidden className="size-5" />
          </div>
          <CardTitle>
            <h1 className="text-xl">{t("forced.title")}</h1>
          </CardTitle>
          <CardDescription>{t("forced.text")}</CardDescription>
          <p className="text-sm text-muted-foreground" data-testid="admin-username">
            {th("signedInAs", { name: session.user.username })}
          </p>
        </CardHeader>
        <CardContent>
          <PasswordChangeForm
            username={session.user.username}
            currentLabel={t("forced.current")}
            onSubmit={onSubmit}
            footer={(pending) => (
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
                <Button type="button" variant="outline" onClick={onLogout} disabled={pending} data-testid="logout">
                  <LogOut aria-hidden />
                  {th("logout")}
                </Button>
                <Button type="submit" disabled={pending} data-testid="save-password">
                  {pending ? <Loader2 aria-hidden className="animate-spin" /> : <KeyRound aria-hidden />}
                  {pending ? t("saving") : t("forced.submit")}
                </Button>
              </div>
            )}
          />
        </CardContent>
      </Card>
    </main>
  );
}
