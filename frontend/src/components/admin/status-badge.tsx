"use client";

import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";

const VARIANT = { pending: "warning", approved: "success", rejected: "destructive", test: "secondary", expired: "outline" } as const;

/** A purchase status as a coloured label; unknown statuses show raw. */
export function PurchaseStatusBadge({ status }: { status: string }) {
  const t = useTranslations("admin.status");
  const known = status in VARIANT ? (status as keyof typeof VARIANT) : null;
  return <Badge variant={known ? VARIANT[known] : "outline"}>{known ? t(known) : status}</Badge>;
}
