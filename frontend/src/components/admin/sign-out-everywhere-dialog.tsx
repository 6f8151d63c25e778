"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { Loader2, MonitorSmartphone } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";

/**
 * 'Cerrar sesión en todos los dispositivos' confirmed: says that this device signs out too. When
 * the server cannot end the sessions the dialog stays open (nothing was signed out anywhere).
 */
export function SignOutEverywhereDialog({ onConfirm, onClose }: { onConfirm: () => Promise<void>; onClose: () => void }) {
  const t = useTranslations("admin.header.everywhereDialog");
  const tc = useTranslations("admin.common");
  const [pending, setPending] = useState(false);
  async function confirm() {
    setPending(true);
    try {
      await onConfirm();
    } catch (error) {
      notify.error(t("error"), { description: errorMessage(error, t("error")) });
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="logout-everywhere-dialog">
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("text")}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            {tc("cancel")}
          </Button>
          <Button type="button" variant="destructive" onClick={confirm} disabled={pending} data-testid="confirm-logout-everywhere">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : <MonitorSmartphone aria-hidden />}
            {t("confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
