"use client";

import { useSyncExternalStore } from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/** Below Tailwind's `sm`: a phone, where a dialog fills the screen's height. */
export const PHONE_QUERY = "(max-width: 639px)";

function subscribePhone(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Where toasts go: at the top on wider screens, at the bottom on a phone, where a dialog opened
 * with the toast (the receipt after '¡Compra Exitosa!') reaches the top and its header would be
 * covered (issue 31).
 */
export function useToastPosition(): NonNullable<ToasterProps["position"]> {
  const phone = useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches, () => false);
  return phone ? "bottom-center" : "top-center";
}

/** One toast at a time, 5 s each (SPEC §9 "Toasts"). */
function Toaster(props: ToasterProps) {
  const position = useToastPosition();
  return (
    <Sonner
      visibleToasts={1}
      duration={5000}
      position={position}
      richColors
      closeButton
      className="toaster group"
      style={
        {
          "--normal-bg": "hsl(var(--background))",
          "--normal-text": "hsl(var(--foreground))",
          "--normal-border": "hsl(var(--border))",
          // sonner's rich colours are below 4.5:1 on their tinted backgrounds; darker text passes.
          "--success-text": "hsl(142 72% 24%)",
          "--error-text": "hsl(0 75% 38%)",
          "--warning-text": "hsl(30 90% 26%)",
          "--info-text": "hsl(210 90% 33%)",
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
