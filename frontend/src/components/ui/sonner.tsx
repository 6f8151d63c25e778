"use client";

import { Toaster as Sonner, type ToasterProps } from "sonner";

/** One toast at a time, 5 s each (SPEC §9 "Toasts"). */
function Toaster(props: ToasterProps) {
  return (
    <Sonner
      visibleToasts={1}
      duration={5000}
      position="top-center"
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
