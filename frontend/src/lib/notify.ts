"use client";

/**
 * Toasts without putting the toast library on the page's start-up path: sonner is imported on
 * first use, and the <Toaster /> (components/providers.tsx) mounts then too. Sonner replays
 * toasts created before its Toaster subscribed, so the first toast is not lost.
 */
type Options = {
  description?: string;
  duration?: number;
  id?: string | number;
  /** A button in the toast (e.g. 'Ver' on a new purchase). */
  action?: { label: string; onClick: () => void };
};
type Kind = "success" | "error" | "warning" | "info";

let toasterWanted = false;
const toasterListeners = new Set<() => void>();

/** Whether a toast was ever shown on this page (the Toaster mounts from then on). */
export const isToasterWanted = () => toasterWanted;

export function subscribeToasterWanted(listener: () => void): () => void {
  toasterListeners.add(listener);
  return () => toasterListeners.delete(listener);
}

function show(kind: Kind, title: string, options?: Options): void {
  if (!toasterWanted) {
    toasterWanted = true;
    toasterListeners.forEach((listener) => listener());
  }
  void import("sonner").then(({ toast }) => toast[kind](title, options));
}

export const notify = {
  success: (title: string, options?: Options) => show("success", title, options),
  error: (title: string, options?: Options) => show("error", title, options),
  warning: (title: string, options?: Options) => show("warning", title, options),
  info: (title: string, options?: Options) => show("info", title, options),
  /** Removes a toast by its id (one that no longer holds, e.g. a failed sign-in once signed in). */
  dismiss: (id: string | number) => {
    if (toasterWanted) void import("sonner").then(({ toast }) => toast.dismiss(id));
  },
};
