"use client";

import { useMemo } from "react";
import type { KeyedMutator } from "swr";
import { ApiError, errorMessage } from "@/lib/api/fetcher";
import type { AdminDrawView } from "@/lib/api/types";
import { notify } from "@/lib/notify";

/**
 * Runs one write of the draw and resolves the view it answered (null when it failed). The answer
 * is the whole admin view, so it replaces the cached one without another read. A failure toasts
 * the server's message, after `onFailure` (e.g. putting field messages on a form).
 *
 * `check` runs a call that stores nothing (a result's preview) and resolves its answer (null when
 * it failed); a failure is told as a write's is.
 */
export interface DrawWrite {
  (call: () => Promise<AdminDrawView>, texts: { done: string; failed: string }, onFailure?: (error: unknown) => void): Promise<AdminDrawView | null>;
  check<T>(call: () => Promise<T>, failed: string, onFailure?: (error: unknown) => void): Promise<T | null>;
}

export function useDrawWrite(mutate: KeyedMutator<AdminDrawView>): DrawWrite {
  return useMemo(() => {
    function failed(error: unknown, text: string, onFailure?: (error: unknown) => void) {
      onFailure?.(error);
      notify.error(text, { description: errorMessage(error, text) });
      // A 409 refuses the state the panel showed (a purchase arrived, sales reopened, another
      // admin drew first): read it again so the panel shows what can be done now.
      if (error instanceof ApiError && error.status === 409) void mutate();
    }
    const write = async (call: () => Promise<AdminDrawView>, texts: { done: string; failed: string }, onFailure?: (error: unknown) => void) => {
      try {
        const view = await call();
        await mutate(view, { revalidate: false });
        notify.success(texts.done);
        return view;
      } catch (error) {
        failed(error, texts.failed, onFailure);
        return null;
      }
    };
    async function check<T>(call: () => Promise<T>, text: string, onFailure?: (error: unknown) => void): Promise<T | null> {
      try {
        return await call();
      } catch (error) {
        failed(error, text, onFailure);
        return null;
      }
    }
    return Object.assign(write, { check });
  }, [mutate]);
}
