"use client";

import { useMemo, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";
import { MIN_PASSWORD_LENGTH, passwordChangeSchema, type PasswordChangeValues } from "@/lib/validations/password";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";

/**
 * The current password and the new one twice, for the header's dialog and the first sign-in's
 * screen. The server's refusals land under their fields (a wrong current password, a new one
 * too easy to guess); others (too many attempts) are toasted. Once changed, says that the
 * account's other devices were signed out.
 */
export function PasswordChangeForm({
  username,
  currentLabel,
  onSubmit,
  onChanged,
  footer,
}: {
  /** For password managers: the account the new password belongs to. */
  username: string;
  currentLabel: string;
  onSubmit: (currentPassword: string, newPassword: string) => Promise<void>;
  /** After the change (the dialog closes; the first sign-in's screen goes by itself, its user changed). */
  onChanged?: () => void;
  /** The buttons, the submit one among them. */
  footer: (pending: boolean) => ReactNode;
}) {
  const t = useTranslations("admin.password");
  const tf = useTranslations("fieldErrors");
  const schema = useMemo(
    () => passwordChangeSchema({ required: tf("required"), tooShort: tf("tooShort", { min: MIN_PASSWORD_LENGTH }), mismatch: t("mismatch") }),
    [t, tf],
  );
  const { control, handleSubmit, setError, formState } = useForm<PasswordChangeValues>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: "", newPassword: "", repeatPassword: "" },
  });

  async function save(values: PasswordChangeValues) {
    try {
      await onSubmit(values.currentPassword, values.newPassword);
      notify.success(t("changedTitle"), { description: t("changed") });
      onChanged?.();
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ["currentPassword", "newPassword"])) {
        notify.error(t("error"), { description: errorMessage(error, t("error")) });
      }
    }
  }

  return (
    <form onSubmit={handleSubmit(save)} noValidate className="grid gap-4" data-testid="password-form">
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <FormField control={control} name="currentPassword" label={currentLabel}>
        {(field) => <Input type="password" autoComplete="current-password" {...field} />}
      </FormField>
      <FormField control={control} name="newPassword" label={t("new")} hint={t("newHint")}>
        {(field) => <Input type="password" autoComplete="new-password" {...field} />}
      </FormField>
      <FormField control={control} name="repeatPassword" label={t("repeat")}>
        {(field) => <Input type="password" autoComplete="new-password" {...field} />}
      </FormField>
      {footer(formState.isSubmitting)}
    </form>
  );
}
