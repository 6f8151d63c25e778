import type { ReactNode } from "react";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export interface ListStatesProps {
  /** The read failed: its message (and `detail`, when the server said more) with a retry. */
  failed: boolean;
  /** The first read is still on its way. */
  loading: boolean;
  /** Read, with nothing in it. */
  empty: boolean;
  errorText: string;
  detail?: string;
  retryText: string;
  onRetry: () => void;
  emptyText: string;
  /** `<testId>-error` and `<testId>-empty`. */
  testId: string;
  /** Drawn under a bar of the same card. */
  bordered?: boolean;
  children: ReactNode;
}

/**
 * The states of a panel's list before it has rows to show, one after the other as each wins:
 * failed, loading, empty; then the list itself.
 */
export function ListStates({ failed, loading, empty, errorText, detail, retryText, onRetry, emptyText, testId, bordered = false, children }: ListStatesProps) {
  const state = cn("p-8 text-center", bordered && "border-t");
  if (failed) {
    return (
      <div className={cn(state, "grid justify-items-center gap-3")} role="alert" data-testid={`${testId}-error`}>
        <p>{errorText}</p>
        {detail && <p className="text-sm text-muted-foreground">{detail}</p>}
        <Button type="button" variant="outline" onClick={onRetry}>
          {retryText}
        </Button>
      </div>
    );
  }
  if (loading) {
    return (
      <p role="status" className={cn(state, "text-muted-foreground")}>
        <Loader2 aria-hidden className="mx-auto mb-2 size-5 animate-spin" />
      </p>
    );
  }
  if (empty) {
    return (
      <p className={cn(state, "text-muted-foreground")} data-testid={`${testId}-empty`}>
        {emptyText}
      </p>
    );
  }
  return children;
}
