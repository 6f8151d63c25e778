"use client";

import { useEffect, useId, useMemo } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ArrowLeft, LockKeyhole, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { LanguageToggle } from "@/components/layout/language-toggle";
import { login } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import { saveSession } from "@/lib/auth/session";
import { notify } from "@/lib/notify";
import { loginSchema, type LoginValues } from "@/lib/validations/login";
import { useAdminSession, useHydrated } from "./use-admin-session";

/** One failed-sign-in toast at a time, dismissed once the sign-in succeeds. */
const LOGIN_FAILED_TOAST = "login-failed";

/** /admin/login (SPEC §2 "Administrator login", §5, §8). */
export function LoginForm() {
  const t = useTranslations("admin.login");
  const tf = useTranslations("fieldErrors");
  const router = useRouter();
  const hydrated = useHydrated();
  const session = useAdminSession();
  const schema = useMemo(() => loginSchema(tf("required")), [tf]);
  const form = useForm<LoginValues>({ resolver: zodResolver(schema), defaultValues: { username: "", password: "" } });
  const { control, handleSubmit, setError, clearErrors, formState } = form;
  const problem = formState.errors.root?.message ?? null;
  const errorId = useId();

  // Already signed in: straight to the dashboard.
  useEffect(() => {
    if (hydrated && session) router.replace("/admin/dashboard");
  }, [hydrated, session, router]);

  function fail(message: string) {
    setError("root", { message });
    notify.error(t("failedTitle"), { description: message, id: LOGIN_FAILED_TOAST });
  }

  async function submit(values: LoginValues) {
    clearErrors("root");
    try {
      const result = await login(values.username.trim(), values.password);
      saveSession({ token: result.token, user: result.user });
      notify.dismiss(LOGIN_FAILED_TOAST);
      router.replace("/admin/dashboard");
    } catch (error) {
      fail(errorMessage(error, t("invalid")));
    }
  }

  const pending = formState.isSubmitting || formState.isSubmitSuccessful;
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
          <form onSubmit={handleSubmit(submit, () => fail(t("fillAll")))} noValidate className="grid gap-4" aria-describedby={invalid ? errorId : undefined}>
            <FormField control={control} name="username" id="admin-username" label={t("username")} className="gap-2">
              {(field) => <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...field} />}
            </FormField>
            <FormField control={control} name="password" id="admin-password" label={t("password")} className="gap-2">
              {(field) => <Input type="password" autoComplete="current-password" {...field} />}
            </FormField>
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
