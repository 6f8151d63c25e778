"use client";

import { useId } from "react";
import { useTranslations } from "next-intl";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { OFFERED_RULES } from "@/lib/validations/draw";

/** Whether `rule` is one the form may send (`rifa-rule-v1` is only shown). */
export function isOfferedRule(rule: string | undefined): rule is (typeof OFFERED_RULES)[number] {
  return (OFFERED_RULES as readonly string[]).includes(rule ?? "");
}

/**
 * The raffle's draw rule: the two offered rules, among the sold numbers first (the default). A
 * raffle frozen under `rifa-rule-v1` shows it, read-only; so does a raffle whose rules are locked.
 */
export function RuleField({ value, onChange, disabled, note }: { value: string; onChange?: (rule: string) => void; disabled?: boolean; note?: string }) {
  const t = useTranslations("admin.draw.prizes");
  const id = useId();
  const offered = isOfferedRule(value);
  const readOnly = disabled || !offered || !onChange;
  const hint = t.has(`ruleHints.${value}` as never) ? t(`ruleHints.${value}` as never) : null;
  return (
    <div className="grid gap-1.5" data-testid="draw-rule">
      <Label htmlFor={id}>{t("rule")}</Label>
      <NativeSelect id={id} value={value} disabled={readOnly} onChange={(event) => onChange?.(event.target.value)} aria-describedby={`${id}-hint`} data-testid="draw-rule-select">
        {(offered ? OFFERED_RULES : [value]).map((rule) => (
          <option key={rule} value={rule}>
            {t.has(`rules.${rule}` as never) ? t(`rules.${rule}` as never) : rule}
          </option>
        ))}
      </NativeSelect>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
        {note && <span className="block">{note}</span>}
      </p>
    </div>
  );
}
