"use client";

import { useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { Loader2, UserPlus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { createStaff } from "@/lib/api/admin";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import type { HandedOver } from "@/lib/api/types";
import { newStaffSchema, USERNAME, type NewStaffValues } from "@/lib/validations/staff";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { RoleSelect, StaffRefusal } from "./staff-form-parts";

/**
 * 'Nueva cuenta': a username and a role, each role said in a line. The server generates the
 * password (`onCreated` shows it, once). A name already taken is said under the name; any other
 * refusal stays in the dialog in the server's words.
 */
export function NewAccountDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (handed: HandedOver) => void }) {
  const t = useTranslations("admin.staff");
  const tn = useTranslations("admin.staff.newDialog");
  const tc = useTranslations("admin.common");
  const tf = useTranslations("fieldErrors");
  const [refusal, setRefusal] = useState<string | null>(null);
  const schema = useMemo(
    () => newStaffSchema({ tooShort: tf("tooShort", { min: USERNAME.min }), tooLong: tf("tooLong", { max: USERNAME.max }), characters: tn("characters") }),
    [tf, tn],
  );
  const { control, handleSubmit, setError, formState } = useForm<NewStaffValues>({
    resolver: zodResolver(schema),
    // The fewest rights until the owner picks more.
    defaultValues: { username: "", role: "reviewer" },
  });
  const role = useWatch({ control, name: "role" });
  const pending = formState.isSubmitting;

  async function submit(values: NewStaffValues) {
    setRefusal(null);
    try {
      onCreated(await createStaff(values.username, values.role));
    } catch (error) {
      if (applyServerFieldErrors(error, setError, ["username", "role"])) return;
      if (error instanceof ApiError && error.code === "username_taken") {
        setError("username", { type: "server", message: errorMessage(error, tn("error")) });
        return;
      }
      setRefusal(errorMessage(error, tn("error")));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="new-account-dialog">
        <DialogHeader>
          <DialogTitle>{tn("title")}</DialogTitle>
          <DialogDescription>{tn("text")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-4">
          <FormField control={control} name="username" label={tn("username")} hint={tn("usernameHint")}>
            {(field) => <Input {...field} autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={USERNAME.max} />}
          </FormField>
          <FormField control={control} name="role" label={tn("role")} hint={t(`roleHints.${role}`)}>
            {(field) => <RoleSelect {...field} />}
          </FormField>
          <StaffRefusal message={refusal} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {tc("cancel")}
            </Button>
            <Button type="submit" disabled={pending} data-testid="create-account">
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : <UserPlus aria-hidden />}
              {pending ? tn("saving") : tn("submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
