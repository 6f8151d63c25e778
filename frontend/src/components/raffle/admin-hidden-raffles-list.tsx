"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { EyeOff } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { useAdminRaffles } from "@/lib/swr/use-raffles";
import { formatDate, formatUsd } from "@/lib/format";

export function AdminHiddenRafflesList({ publicIds }: { publicIds: number[] }) {
  const t = useTranslations("sorteos");
  const tc = useTranslations("common");
  const locale = useLocale();
  const { data } = useAdminRaffles();
  const hidden = (data ?? []).filter((r) => !publicIds.includes(r.id));
  if (!hidden.length) return null;
  const status = (s: string) => (tc.has(`statuses.${s}` as never) ? tc(`statuses.${s}` as never) : s);
  return (
    <section aria-labelledby="admin-hidden-title" className="mt-10 rounded-xl border border-dashed border-warning bg-warning/5 p-5" data-testid="admin-hidden-raffles">
      <h2 id="admin-hidden-title" className="flex items-center gap-2 text-lg font-semibold">
        <EyeOff aria-hidden className="size-5" />
        {t("adminHiddenTitle")}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{t("adminHiddenText")}</p>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {hidden.map((r) => (
          <li key={r.id} className="flex flex-col gap-2 rounded-lg border bg-card p-4">
            <div className="flex items-start justify-between gap-2">
              <span className="font-medium">{r.title}</span>
              <Badge variant="secondary">{status(r.status)}</Badge>
            </div>
            <span className="text-sm text-muted-foreground">
              {formatUsd(r.price, locale)} · {r.drawDate ? formatDate(r.drawDate, locale) : tc("noDrawDate")}
            </span>
            <Link href={`/sorteo/${r.id}`} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              {t("adminOpen")}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
