import Link from "next/link";
import { useTranslations } from "next-intl";
import { SearchX } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";

/** No purchase behind this link (unknown id, or a key missing or wrong): what to do instead. */
export function PurchaseNotFound() {
  const t = useTranslations("buyerPage");
  return (
    <div className="mx-auto max-w-xl space-y-4 rounded-xl border bg-card p-6 text-center shadow-sm" data-testid="buyer-not-found">
      <SearchX aria-hidden className="mx-auto size-10 text-muted-foreground" />
      <h1 className="text-2xl font-bold">{t("notFoundTitle")}</h1>
      <p className="text-muted-foreground">{t("notFoundText")}</p>
      <div className="flex flex-col justify-center gap-2 sm:flex-row">
        <Link href="/#verificar" className={buttonVariants()}>{t("verify")}</Link>
        <Link href="/" className={buttonVariants({ variant: "outline" })}>{t("home")}</Link>
      </div>
    </div>
  );
}
