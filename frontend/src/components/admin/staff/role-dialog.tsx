"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { Loader2, UserCog } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { isStaffRole } from "@/lib/admin/permissions";
import { updateStaff } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { StaffMember } from "@/lib/api/types";
import { notify } from "@/lib/notify";
import { staffRoleSchema, type StaffRoleValues } from "@/lib/validations/staff";
import { applyServerFieldErrors } from "@/lib/validations/server-errors";
import { RoleSelect, StaffRefusal } from "./staff-form-parts";

/** 'Cambiar rol': the account's role, each said in a line; a refusal stays in the dialog. */
export function RoleDialog({ member, onClose, onSaved }: { member: StaffMember; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("admin.staff");
  const tr = useTranslations("admin.staff.roleDialog");
  const tc = useTranslations("admin.common");
  const [refusal, setRefusal] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<StaffRoleValues>({
    resolver: zodResolver(staffRoleSchema),
    defaultValues: { role: isStaffRole(member.role) ? member.role : "reviewer" },
  });
  const role = useWatch({ control, name: "role" });
  const pending = formState.isSubmitting;

  async function submit(values: StaffRoleValues) {
    setRefusal(null);
    try {
      await updateStaff(member.id, { role: values.role });
      notify.success(tr("done"), { description: tr("doneText", { name: member.username, role: t(`roles.${values.role}`) }) });
      onSaved();
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ["role"])) setRefusal(errorMessage(error, tr("error")));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="role-dialog">
        <DialogHeader>
          <DialogTitle>{tr("title", { name: member.username })}</DialogTitle>
          <DialogDescription>{tr("text")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit(submit)} noValidate className="grid gap-4">
          <FormField control={control} name="role" label={tr("role")} hint={t(`roleHints.${role}`)}>
            {(field) => <RoleSelect {...field} />}
          </FormField>
          <StaffRefusal message={refusal} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              {tc("cancel")}
            </Button>
            <Button type="submit" disabled={pending || role === member.role} data-testid="save-role">
              {pending ? <Loader2 aria-hidden className="animate-spin" /> : <UserCog aria-hidden />}
              {pending ? tr("saving") : tr("submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
