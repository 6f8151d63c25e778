"use client";

import type { ReactNode } from "react";
import { Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";

/**
 * The frame the raffles, payment-methods and rates tabs share: title and add button, then a
 * card holding the table (`children`), or a loading or empty line; `after` holds what follows
 * the card (notes, dialogs).
 */
export function CatalogTab({
  testId,
  title,
  addLabel,
  onAdd,
  loading,
  empty,
  emptyText,
  children,
  after,
}: {
  testId: string;
  title: string;
  addLabel: string;
  onAdd: () => void;
  loading: boolean;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 gap-4" data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-bold">{title}</h2>
        <Button type="button" onClick={onAdd}>
          <Plus aria-hidden />
          {addLabel}
        </Button>
      </div>
      <Card className="gap-0 py-0">
        {loading ? (
          <p role="status" className="p-8 text-center text-muted-foreground">…</p>
        ) : empty ? (
          <p className="p-8 text-center text-muted-foreground">{emptyText}</p>
        ) : (
          children
        )}
      </Card>
      {after}
    </div>
  );
}

/**
 * Runs a delete, then toasts the outcome (the server's message on failure) and refreshes on
 * success. Resolves whether it worked, so the confirmation dialog knows whether to close.
 */
export async function removeWithToast(
  remove: () => Promise<unknown>,
  success: { title: string; description?: string },
  failureTitle: string,
  refresh: () => unknown,
): Promise<boolean> {
  try {
    await remove();
    notify.success(success.title, success.description ? { description: success.description } : undefined);
    void refresh();
    return true;
  } catch (error) {
    notify.error(failureTitle, { description: errorMessage(error, failureTitle) });
    return false;
  }
}
