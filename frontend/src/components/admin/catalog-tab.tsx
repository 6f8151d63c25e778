"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Loader2, Plus, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { errorMessage } from "@/lib/api/fetcher";
import { notify } from "@/lib/notify";

/**
 * The frame the raffles, payment-methods, rates and team tabs share: title and add button, then a
 * card holding the table (`children`, from 768 px) or one card per item (`cards`, phones and
 * small tablets, actions in reach without sideways scrolling), or a loading, error or empty
 * line; `after` holds what follows the card (notes, dialogs).
 */
export function CatalogTab({
  testId,
  title,
  addLabel,
  onAdd,
  loading,
  error,
  onRetry,
  empty,
  emptyText,
  cards,
  children,
  after,
}: {
  testId: string;
  title: string;
  addLabel: string;
  onAdd: () => void;
  loading: boolean;
  /** The list could not be read (and nothing is cached to show). */
  error: boolean;
  onRetry: () => void;
  empty: boolean;
  emptyText: string;
  cards: ReactNode;
  children: ReactNode;
  after?: ReactNode;
}) {
  const t = useTranslations("admin.common");
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
          <p role="status" className="p-8 text-center text-muted-foreground">
            <Loader2 aria-hidden className="mx-auto size-5 animate-spin" />
            <span className="sr-only">{t("loading")}</span>
          </p>
        ) : error ? (
          <div className="grid justify-items-center gap-3 p-8 text-center" role="alert" data-testid={`${testId}-error`}>
            <p>{t("loadError")}</p>
            <Button type="button" variant="outline" onClick={onRetry}>
              <RotateCw aria-hidden />
              {t("retry")}
            </Button>
          </div>
        ) : empty ? (
          <p className="p-8 text-center text-muted-foreground" data-testid={`${testId}-empty`}>
            {emptyText}
          </p>
        ) : (
          <>
            <ul className="divide-y md:hidden" data-testid={`${testId}-cards`}>
              {cards}
            </ul>
            <div className="max-md:hidden">{children}</div>
          </>
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

/** One item of a catalogue tab on a phone: a title line, facts, then the actions (if any) at full width. */
export function CatalogCard({ testId, dataName, title, badge, children, actions }: { testId: string; dataName: string; title: ReactNode; badge?: ReactNode; children?: ReactNode; actions?: ReactNode }) {
  return (
    <li className="grid gap-2 p-4" data-testid={testId} data-name={dataName}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0 font-medium">{title}</div>
        {badge}
      </div>
      {children}
      {actions && <div className="flex gap-2 [&>*]:flex-1">{actions}</div>}
    </li>
  );
}

/** A label and value pair inside a catalogue card. */
export function CardFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 text-sm">
      <span className="text-muted-foreground">{label}</span>
      <span className="min-w-0 text-right">{children}</span>
    </div>
  );
}
