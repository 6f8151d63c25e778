import { useTranslations } from "next-intl";
import { Loader2 } from "lucide-react";

export default function Loading() {
  const t = useTranslations("common");
  return (
    <p role="status" className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-24 text-muted-foreground">
      <Loader2 aria-hidden className="size-4 animate-spin" />
      {t("loading")}
    </p>
  );
}
