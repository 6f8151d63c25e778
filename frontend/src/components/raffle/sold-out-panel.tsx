import { useTranslations } from "next-intl";
import { PartyPopper } from "lucide-react";

/** Every number sold, none only held: 'Agotado'. */
export function SoldOutPanel() {
  const t = useTranslations("soldOut");
  return (
    <div role="status" className="flex items-start gap-4 rounded-xl border bg-card p-5 shadow-sm" data-testid="sold-out">
      <PartyPopper aria-hidden className="size-8 shrink-0 text-primary" />
      <div>
        <p className="text-lg font-bold">{t("title")}</p>
        <p className="text-sm text-muted-foreground">{t("text")}</p>
      </div>
    </div>
  );
}
