"use client";

import { useTranslations } from "next-intl";
import { Check, Eye, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { AdminPurchase } from "@/lib/api/types";
import { cn } from "@/lib/utils";
import type { PurchaseHandlers } from "./types";

/**
 * View, and approve or reject while pending: the same buttons in a table row and a phone's card.
 * `layout` "card": wide buttons within thumb reach; "row": compact, labels hidden below xl.
 */
export function PurchaseActions({ purchase: p, layout, onView, onDecide }: { purchase: AdminPurchase; layout: "card" | "row" } & PurchaseHandlers) {
  const t = useTranslations("admin.purchases");
  const button = layout === "card" ? "flex-1" : undefined;
  const label = layout === "row" ? "max-xl:sr-only" : undefined;
  return (
    <div className={cn("flex", layout === "card" ? "gap-2" : "justify-end gap-1")}>
      <Button type="button" variant="outline" size="sm" className={button} onClick={() => onView(p)} aria-label={t("viewLabel", { reference: p.reference })}>
        <Eye aria-hidden />
        <span className={label}>{t("view")}</span>
      </Button>
      {p.status === "pending" && (
        <>
          <Button type="button" variant="success" size="sm" className={button} onClick={() => onDecide({ purchase: p, status: "approved" })} aria-label={t("approveLabel", { reference: p.reference })}>
            <Check aria-hidden />
            <span className={label}>{t("approve")}</span>
          </Button>
          <Button type="button" variant="destructive" size="sm" className={button} onClick={() => onDecide({ purchase: p, status: "rejected" })} aria-label={t("rejectLabel", { reference: p.reference })}>
            <X aria-hidden />
            <span className={label}>{t("reject")}</span>
          </Button>
        </>
      )}
    </div>
  );
}
