"use client";

import { useTransition } from "react";
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { Languages } from "lucide-react";
import { Button } from "@/components/ui/button";
import { persistLocale } from "@/lib/i18n/client";
import { cn } from "@/lib/utils";

/** ES/EN switch: remembers the choice (cookie + local storage) and re-renders on the server. */
export function LanguageToggle({ className }: { className?: string }) {
  const locale = useLocale();
  const t = useTranslations("header");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const next = locale === "es" ? "en" : "es";
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className={cn("gap-1.5 font-semibold", className)}
      disabled={pending}
      data-testid="language-toggle"
      onClick={() => {
        persistLocale(next);
        startTransition(() => router.refresh());
      }}
    >
      <Languages aria-hidden />
      <span className="sr-only">{t("switchTo")}: </span>
      <span lang={next}>{next.toUpperCase()}</span>
    </Button>
  );
}
