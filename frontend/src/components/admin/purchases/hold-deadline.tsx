"use client";

import { useLocale, useTranslations } from "next-intl";
import { Hourglass } from "lucide-react";
import type { AdminPurchase } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format";

/** Until when a pending purchase without a proof holds its numbers; nothing for any other. */
export function HoldDeadline({ purchase }: { purchase: Pick<AdminPurchase, "status" | "holdExpiresAt"> }) {
  const t = useTranslations("admin.purchases");
  const locale = useLocale();
  if (purchase.status !== "pending" || !purchase.holdExpiresAt) return null;
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap text-xs text-muted-foreground" data-testid="hold-deadline">
      <Hourglass aria-hidden className="size-3" />
      {t("holdUntil", { deadline: formatDateTime(purchase.holdExpiresAt, locale, "short") })}
    </span>
  );
}
