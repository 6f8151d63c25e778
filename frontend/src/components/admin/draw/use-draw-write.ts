"use client";

import { useCallback } from "react";
import type { KeyedMutator } from "swr";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import type { AdminDrawView } from "@/lib/api/types";
import { notify } from "@/lib/notify";

/**
 * Runs one write of the draw and resolves the view it answered (null when it failed). The answer
 * is the whole admin view, so it replaces the cached one without another read. A failure toasts
 * the server's message, after `onFailure` (e.g. putting field messages on a form).
 */
export type DrawWrite = (
  call: () => Promise<AdminDrawView>,
  texts: { done: string; failed: string },
  onFailure?: (error: unknown) => void,
) => Promise<AdminDrawView | null>;

export function useDrawWrite(mutate: KeyedMutator<AdminDrawView>): DrawWrite {
  return useCallback(
    async (call, texts, onFailure) => {
      try {
        const view = await call();
        await mutate(view, { revalidate: false });
        notify.success(texts.done);
        return view;
      } catch (error) {
        onFailure?.(error);
        notify.error(texts.failed, { description: errorMessage(error, texts.failed) });
        // A 409 refuses the state the panel showed (a purchase arrived, sales reopened, another
        // admin drew first): read it again so the panel shows what can be done now.
        if (error instanceof ApiError && error.status === 409) void mutate();
        return null;
      }
    },
    [mutate],
  );
}
