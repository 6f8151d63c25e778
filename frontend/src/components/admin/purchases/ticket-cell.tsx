"use client";

import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { padTicket } from "@/lib/format";

/** Numbers shown in a row or card before the '+N' badge (SPEC §9). */
const SHOWN_NUMBERS = 3;

export function TicketCell({ numbers, width }: { numbers: number[]; width: number }) {
  const t = useTranslations("admin.purchases");
  const shown = numbers.slice(0, SHOWN_NUMBERS);
  const more = numbers.length - shown.length;
  return (
    <div className="flex max-w-56 flex-wrap items-center gap-1">
      {shown.map((n) => (
        <span key={n} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
          {padTicket(n, width)}
        </span>
      ))}
      {more > 0 && <Badge variant="secondary">{t("more", { count: more })}</Badge>}
    </div>
  );
}
