import { useTranslations } from "next-intl";
import { CloudOff, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * What the home and list pages show when the API did not answer: saying so, rather than an
 * empty catalogue that reads as "no raffles". The retry is a full load of the page (`href`),
 * since the list is read on the server.
 */
export function RafflesUnavailable({ href }: { href: string }) {
  const t = useTranslations("common");
  return (
    <div role="alert" className="rounded-xl border border-dashed p-10 text-center" data-testid="raffles-unavailable">
      <CloudOff aria-hidden className="mx-auto mb-3 size-8 text-muted-foreground" />
      <p className="text-lg font-semibold">{t("unavailableTitle")}</p>
      <p className="mx-auto mt-2 max-w-md text-muted-foreground">{t("unavailableText")}</p>
      <Button asChild variant="outline" className="mt-4">
        <a href={href}>
          <RotateCw aria-hidden />
          {t("retry")}
        </a>
      </Button>
    </div>
  );
}
