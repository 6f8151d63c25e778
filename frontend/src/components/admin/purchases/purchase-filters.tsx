"use client";

import { useTranslations } from "next-intl";
import { X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import type { Raffle } from "@/lib/api/types";
import { DateField } from "../date-field";

const STATUSES = ["pending", "approved", "rejected", "expired", "test"] as const;

/** The filters as typed (the panel debounces the text ones before searching). */
export interface FilterValues {
  raffleId: string;
  status: string;
  name: string;
  tickets: string;
  date: string;
}

export const NO_FILTERS: FilterValues = { raffleId: "", status: "all", name: "", tickets: "", date: "" };

/**
 * The search's filters: raffle and status on both tabs; name, ticket numbers and day on the
 * verification tab only (the daily tab's day is today). Live controls, not a form: each change
 * searches at once.
 */
export function PurchaseFilterBar({ mode, values, onChange, raffles }: { mode: "all" | "today"; values: FilterValues; onChange: (next: FilterValues) => void; raffles: Raffle[] | undefined }) {
  const t = useTranslations("admin.purchases");
  const ts = useTranslations("admin.status");
  const set = (key: keyof FilterValues) => (value: string) => onChange({ ...values, [key]: value });
  return (
    <div className={mode === "all" ? "grid gap-3 border-b p-4 sm:grid-cols-2 lg:grid-cols-5" : "grid gap-3 border-b p-4 sm:grid-cols-2"}>
      <div className="grid gap-1.5">
        <Label htmlFor={`${mode}-raffle`}>{t("filterRaffle")}</Label>
        <NativeSelect id={`${mode}-raffle`} value={values.raffleId} onChange={(e) => set("raffleId")(e.target.value)} className="h-10 text-sm">
          <option value="">{t("allRaffles")}</option>
          {(raffles ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </NativeSelect>
      </div>
      {mode === "all" && (
        <div className="grid gap-1.5">
          <Label htmlFor="filter-name">{t("filterName")}</Label>
          <Input id="filter-name" className="h-10 text-sm" type="search" value={values.name} placeholder={t("filterNamePlaceholder")} onChange={(e) => set("name")(e.target.value)} />
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor={`${mode}-status`}>{t("filterStatus")}</Label>
        <NativeSelect id={`${mode}-status`} value={values.status} onChange={(e) => set("status")(e.target.value)} className="h-10 text-sm">
          <option value="all">{t("allStatuses")}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {ts(s)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {mode === "all" && (
        <>
          <div className="grid gap-1.5">
            <Label htmlFor="filter-tickets">{t("filterTickets")}</Label>
            <Input
              id="filter-tickets"
              className="h-10 text-sm"
              inputMode="numeric"
              value={values.tickets}
              placeholder={t("filterTicketsPlaceholder")}
              onChange={(e) => set("tickets")(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="filter-date">{t("filterDate")}</Label>
            <div className="flex gap-1">
              <DateField id="filter-date" value={values.date} onChange={set("date")} />
              <Button type="button" variant="outline" size="icon" className="size-10" disabled={!values.date} onClick={() => set("date")("")} aria-label={t("clearDate")} title={t("clearDate")}>
                <X aria-hidden />
              </Button>
            </div>
          </div>
        </>
      )}
    </div>
  );
}
