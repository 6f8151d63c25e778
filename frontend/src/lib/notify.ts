"use client";

/**
 * Toasts without putting the toast library in the first-load JavaScript: sonner is imported
 * on first use (the <Toaster /> loads right after hydration, see components/providers.tsx).
 */
type Options = {
  description?: string;
  duration?: number;
  id?: string | number;
  /** A button in the toast (e.g. 'Ver' on a new purchase). */
  action?: { label: string; onClick: () => void };
};
type Kind = "success" | "error" | "warning" | "info";

function show(kind: Kind, title: string, options?: Options): void {
  void import("sonner").then(({ toast }) => toast[kind](title, options));
}

export const notify = {
  success: (title: string, options?: Options) => show("success", title, options),
  error: (title: string, options?: Options) => show("error", title, options),
  warning: (title: string, options?: Options) => show("warning", title, options),
  info: (title: string, options?: Options) => show("info", title, options),
};
