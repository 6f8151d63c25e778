"use client";

import { useTranslations } from "next-intl";
import { AlertTriangle, HelpCircle, ShieldAlert, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { Light } from "@/lib/admin/proof-check";
import { cn } from "@/lib/utils";

const LIGHT_BADGE: Record<Light, { variant: "success" | "warning" | "destructive"; icon: typeof ShieldCheck }> = {
  green: { variant: "success", icon: ShieldCheck },
  amber: { variant: "warning", icon: AlertTriangle },
  red: { variant: "destructive", icon: ShieldAlert },
};

/**
 * The light a proof's check came to ('Verde', 'Ámbar', 'Rojo'), as the purchase's dialog and the
 * review queue show it; null: not checked yet ('Sin revisar').
 */
export function ProofLightBadge({ light, className }: { light: Light | null; className?: string }) {
  const t = useTranslations("admin.detail.check");
  if (light === null) {
    return (
      <Badge variant="outline" className={cn("text-muted-foreground", className)} data-light="none">
        <HelpCircle aria-hidden />
        {t("unchecked")}
      </Badge>
    );
  }
  const { variant, icon: Icon } = LIGHT_BADGE[light];
  return (
    <Badge variant={variant} className={className} data-light={light}>
      <Icon aria-hidden />
      {t(`lights.${light}`)}
    </Badge>
  );
}
