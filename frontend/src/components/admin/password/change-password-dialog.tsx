"use client";

import { useTranslations } from "next-intl";
import { KeyRound, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { PasswordChangeForm } from "./password-form";

/** The header's 'Cambiar contraseña': this page stays signed in, the account's other sessions end. */
export function ChangePasswordDialog({
  username,
  onSubmit,
  onClose,
}: {
  username: string;
  onSubmit: (currentPassword: string, newPassword: string) => Promise<void>;
  onClose: () => void;
}) {
  const t = useTranslations("admin.password");
  const tc = useTranslations("admin.common");
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="change-password-dialog">
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("text")}</DialogDescription>
        </DialogHeader>
        <PasswordChangeForm
          username={username}
          currentLabel={t("current")}
          onSubmit={onSubmit}
          onChanged={onClose}
          footer={(pending) => (
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
                {tc("cancel")}
              </Button>
              <Button type="submit" disabled={pending} data-testid="save-password">
                {pending ? <Loader2 aria-hidden className="animate-spin" /> : <KeyRound aria-hidden />}
                {pending ? t("saving") : t("submit")}
              </Button>
            </DialogFooter>
          )}
        />
      </DialogContent>
    </Dialog>
  );
}
