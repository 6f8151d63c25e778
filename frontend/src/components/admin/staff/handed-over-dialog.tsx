"use client";

import { useTranslations } from "next-intl";
import { Check, Copy, KeyRound } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { HandedOver } from "@/lib/api/types";
import { notify } from "@/lib/notify";

/**
 * A generated password, shown this once (the server keeps only its hash): the account, the
 * password to copy, and that it must be replaced at the first sign-in. Only 'Listo' or the close
 * button dismiss it, not a stray click beside it.
 */
export function HandedOverDialog({ handed, reset, onClose }: { handed: HandedOver; reset: boolean; onClose: () => void }) {
  const t = useTranslations("admin.staff.handedOver");
  const tc = useTranslations("admin.common");
  const { member, temporaryPassword } = handed;
  const copy = () => {
    void navigator.clipboard?.writeText(temporaryPassword).then(() => notify.success(t("copied")), () => undefined);
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} onInteractOutside={(e) => e.preventDefault()} data-testid="handed-over-dialog">
        <DialogHeader>
          <DialogTitle>{reset ? t("resetTitle") : t("createdTitle")}</DialogTitle>
          <DialogDescription>{t("text", { name: member.username })}</DialogDescription>
        </DialogHeader>
        <dl className="grid gap-3 rounded-md bg-muted p-3 text-sm">
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">{t("username")}</dt>
            <dd className="wrap-anywhere font-medium" data-testid="handed-over-username">
              {member.username}
            </dd>
          </div>
          <div className="grid gap-1">
            <dt className="text-muted-foreground">{t("password")}</dt>
            <dd className="flex items-center gap-2">
              <code className="min-w-0 grow select-all break-all rounded bg-background px-2 py-1.5 font-mono text-base" data-testid="temporary-password">
                {temporaryPassword}
              </code>
              <Button type="button" variant="outline" size="sm" onClick={copy} data-testid="copy-temporary-password">
                <Copy aria-hidden />
                {t("copy")}
              </Button>
            </dd>
          </div>
        </dl>
        <Alert variant="warning">
          <KeyRound aria-hidden />
          <AlertDescription>{t("once")}</AlertDescription>
        </Alert>
        <DialogFooter>
          <Button type="button" onClick={onClose} data-testid="handed-over-done">
            <Check aria-hidden />
            {t("done")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
