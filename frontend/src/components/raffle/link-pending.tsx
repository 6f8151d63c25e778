"use client";

import { useLinkStatus } from "next/link";
import { useTranslations } from "next-intl";
import { Loader2 } from "lucide-react";

/**
 * Feedback inside a <Link> while its page loads. Raffle pages have no streamed loading state
 * (it delayed their main image until the scripts ran), so the card itself says it is opening.
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  const t = useTranslations("common");
  if (!pending) return null;
  return (
    <span role="status" className="ml-2 inline-flex align-middle text-muted-foreground">
      <Loader2 aria-hidden className="size-4 animate-spin" />
      <span className="sr-only">{t("loading")}</span>
    </span>
  );
}
