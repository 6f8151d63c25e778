"use client";

import { useTranslations } from "next-intl";
import { X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { AUDIT_ACTIONS, type AuditFilters } from "@/lib/admin/audit";
import { DateField } from "../date-field";

/**
 * The trail's filters: who, which action, on what, and from/until which day. Live controls, not a
 * form: each change searches (the tab debounces the text ones).
 */
export function AuditFilterBar({ values, onChange }: { values: AuditFilters; onChange: (next: AuditFilters) => void }) {
  const t = useTranslations("admin.audit.filters");
  const ta = useTranslations("admin.audit");
  const set = <K extends keyof AuditFilters>(key: K) => (value: AuditFilters[K]) => onChange({ ...values, [key]: value });
  const day = (key: "from" | "until", clearLabel: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`audit-${key}`}>{t(key)}</Label>
      <div className="flex gap-1">
        <DateField id={`audit-${key}`} value={values[key]} onChange={set(key)} />
        <Button type="button" variant="outline" size="icon" className="size-10" disabled={!values[key]} onClick={() => set(key)("")} aria-label={clearLabel} title={clearLabel}>
          <X aria-hidden />
        </Button>
      </div>
    </div>
  );
  return (
    <div className="grid gap-3 border-b p-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="audit-filters">
      <div className="grid gap-1.5">
        <Label htmlFor="audit-actor">{t("actor")}</Label>
        <Input id="audit-actor" className="h-10 text-sm" type="search" autoComplete="off" value={values.actor} placeholder={t("actorPlaceholder")} onChange={(e) => set("actor")(e.target.value)} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="audit-action">{t("action")}</Label>
        <NativeSelect id="audit-action" value={values.action} onChange={(e) => set("action")(e.target.value as AuditFilters["action"])} className="h-10 text-sm">
          <option value="all">{t("allActions")}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {ta(`actions.${action}`)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="audit-target">{t("target")}</Label>
        <Input id="audit-target" className="h-10 text-sm" type="search" autoComplete="off" value={values.target} placeholder={t("targetPlaceholder")} onChange={(e) => set("target")(e.target.value)} />
      </div>
      {day("from", t("clearFrom"))}
      {day("until", t("clearUntil"))}
    </div>
  );
}
