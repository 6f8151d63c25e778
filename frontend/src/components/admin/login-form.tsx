"use client";

import { useEffect, useId, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ArrowLeft, LockKeyhole, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { LanguageToggle } from "@/components/layout/language-toggle";
import { login } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import { saveSession } from "@/lib/auth/session";
import { notify } from "@/lib/notify";
import { useAdminSession, useHydrated } from "./use-admin-session";

/** One failed-sign-in toast at a time, dismissed once the sign-in succeeds. */
const LOGIN_FAILED_TOAST = "login-failed";

/** /admin/login (SPEC §2 "Administrator login", §5, §8). */
export function LoginForm() {
  const t = useTranslations("admin.login");
  const router = useRouter();
  const hydrated = useHydrated();
  const session = useAdminSession();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const errorId = useId();

  // Already signed in: straight to the dashboard.
  useEffect(() => {
    if (hydrated && session) router.replace("/admin/dashboard");
  }, [hydrated, session, router]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!username.trim() || !password.trim()) {
      setProblem(t("fillAll"));
      notify.error(t("failedTitle"), { description: t("fillAll"), id: LOGIN_FAILED_TOAST });
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      const result = await login(username.trim(), password);
      saveSession({ token: result.token, user: result.user });
      notify.dismiss(LOGIN_FAILED_TOAST);
      router.replace("/admin/dashboard");
    } catch (error) {
      const message = errorMessage(error, t("invalid"));
      setProblem(message);
      notify.error(t("failedTitle"), { description: message, id: LOGIN_FAILED_TOAST });
      setPending(false);
    }
  }

  const invalid = problem !== null;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="mb-4 flex w-full max-w-sm items-center justify-between">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href="/">
            <ArrowLeft aria-hidden />
            {t("back")}
          </Link>
        </Button>
        <LanguageToggle />
      </div>
      <Card className="w-full max-w-sm">
        <CardHeader>
          <div className="mb-2 flex size-11 items-center justify-center rounded-full bg-primary text-primary-foreground">
            <LockKeyhole aria-hidden className="size-5" />
          </div>
          <CardTitle>
            <h1 className="text-xl">{t("title")}</h1>
          </CardTitle>
          <CardDescription>{t("subtitle")}</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} noValidate className="grid gap-4" aria-describedby={invalid ? errorId : undefined}>
            <div className="grid gap-2">
              <Label htmlFor="admin-username">{t("username")}</Label>
              <Input
                id="admin-username"
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                aria-invalid={invalid && !username.trim() ? true : undefined}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="admin-password">{t("password")}</Label>
              <Input
                id="admin-password"
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={invalid && !password.trim() ? true : undefined}
              />
            </div>
            {problem && (
              <p id={errorId} role="alert" className="text-sm font-medium text-danger-strong">
                {problem}
              </p>
            )}
            <Button type="submit" disabled={pending || !hydrated} className="w-full">
              {pending && <Loader2 aria-hidden className="animate-spin" />}
              {pending ? t("submitting") : t("submit")}
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
