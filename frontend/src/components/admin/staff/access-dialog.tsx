"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { KeyRound, Loader2, UserCheck, UserX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { resetStaffPassword, updateStaff } from "@/lib/api/admin";
import { errorMessage } from "@/lib/api/fetcher";
import type { HandedOver, StaffMember } from "@/lib/api/types";
import { notify } from "@/lib/notify";
import { StaffRefusal } from "./staff-form-parts";

/**
 * The confirmations that cut an account off at once: disabling it (or enabling it again), and
 * `reset`ting its password (`onHandedOver` then shows the new one). Both end every session of the
 * account, which the question says; a refusal stays in the dialog in the server's words.
 */
export function AccessDialog({
  member,
  reset = false,
  onClose,
  onSaved,
  onHandedOver,
}: {
  member: StaffMember;
  reset?: boolean;
  onClose: () => void;
  onSaved: () => void;
  onHandedOver?: (handed: HandedOver) => void;
}) {
  const t = useTranslations("admin.staff");
  const tc = useTranslations("admin.common");
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const kind = reset ? "resetDialog" : member.disabled ? "enableDialog" : "disableDialog";
  const name = member.username;

  async function confirm() {
    setPending(true);
    setRefusal(null);
    try {
      if (reset) {
        const handed = await resetStaffPassword(member.id);
        onClose();
        onHandedOver?.(handed);
      } else {
        await updateStaff(member.id, { disabled: !member.disabled });
        notify.success(t(member.disabled ? "enableDialog.done" : "disableDialog.done"), { description: name });
        onClose();
      }
      onSaved();
    } catch (error) {
      setRefusal(errorMessage(error, t(`${kind}.error`)));
      setPending(false);
    }
  }

  const icon = reset ? <KeyRound aria-hidden /> : member.disabled ? <UserCheck aria-hidden /> : <UserX aria-hidden />;
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="staff-access-dialog">
        <DialogHeader>
          <DialogTitle>{t(`${kind}.title`, { name })}</DialogTitle>
          <DialogDescription>{t(`${kind}.text`)}</DialogDescription>
        </DialogHeader>
        <StaffRefusal message={refusal} />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            {tc("cancel")}
          </Button>
          <Button type="button" variant={kind === "enableDialog" ? "default" : "destructive"} onClick={confirm} disabled={pending} data-testid="confirm-staff-access">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : icon}
            {t(`${kind}.confirm`)}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
