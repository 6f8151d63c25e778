"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { Loader2, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/** A delete confirmation: the question, optional facts, Cancel and a destructive confirm. */
export function ConfirmDeleteDialog({
  title,
  question,
  confirmLabel,
  children,
  onConfirm,
  onClose,
}: {
  title: string;
  question: string;
  confirmLabel: string;
  children?: React.ReactNode;
  onConfirm: () => Promise<boolean>;
  onClose: () => void;
}) {
  const tc = useTranslations("admin.common");
  const [pending, setPending] = useState(false);
  async function confirm() {
    setPending(true);
    const done = await onConfirm();
    if (done) onClose();
    else setPending(false);
  }
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md" closeLabel={tc("close")} data-testid="confirm-delete">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{question}</DialogDescription>
        </DialogHeader>
        {children}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            {tc("cancel")}
          </Button>
          <Button type="button" variant="destructive" onClick={confirm} disabled={pending} data-testid="confirm-delete-button">
            {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Trash2 aria-hidden />}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
