"use client";

import { memo, useState, type ChangeEvent, type KeyboardEvent } from "react";
import { useLocale, useTranslations } from "next-intl";
import { Dices, Minus, Plus, Undo2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { formatCount, formatUsd } from "@/lib/format";
import { cn } from "@/lib/utils";

export interface QuickBuyPanelProps {
  /** Quick mode is on: the purchase form buys `count` numbers the server draws when it confirms. */
  active: boolean;
  count: number;
  /** The purchase limits, `max` lowered to the numbers left: below `min`, nothing can be asked for. */
  min: number;
  max: number;
  /** The numbers on sale are still loading. */
  loading?: boolean;
  /** The price of `count` numbers (the server's quote when it has answered), shown while active. */
  total: string;
  onCountChange: (count: number) => void;
  onStart: () => void;
  onLeave: () => void;
}

/**
 * Quick buy: the buyer says how many numbers and the server draws them among the free ones in the
 * purchase itself, so none can be lost to another buyer between picking and paying. Memoised: a
 * number picked in the picker below does not re-render it.
 */
export const QuickBuyPanel = memo(function QuickBuyPanel({ active, count, min, max, loading = false, total, onCountChange, onStart, onLeave }: QuickBuyPanelProps) {
  const t = useTranslations("quickBuy");
  const locale = useLocale();
  // What the buyer is typing: the field may be empty or out of bounds until it is left.
  const [draft, setDraft] = useState<string | null>(null);
  const unusable = loading || max < min;
  const shown = formatCount(count, locale);
  const clamp = (n: number) => Math.min(max, Math.max(min, n));

  const commit = (n: number) => {
    setDraft(null);
    onCountChange(clamp(n));
  };
  const onType = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setDraft(text);
    const n = Number(text);
    if (text !== "" && Number.isInteger(n)) onCountChange(clamp(n));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    setDraft(null);
    if (!active && !unusable) onStart();
  };

  return (
    <section
      aria-labelledby="quick-title"
      className={cn("space-y-3 rounded-xl border p-4", active ? "border-primary bg-primary/5" : "border-dashed bg-muted/30")}
      data-testid="quick-buy"
      data-active={active}
    >
      {/* The icon beside the title only: the text keeps the panel's full width on a phone. */}
      <div className="space-y-1">
        <h3 id="quick-title" className="flex items-center gap-2 font-semibold leading-tight">
          <Dices aria-hidden className="size-5 shrink-0 text-primary" />
          {active ? t("activeTitle") : t("title")}
        </h3>
        <p className="text-sm text-muted-foreground">{active ? t("activeText", { count }) : t("text")}</p>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="flex items-center gap-2">
          <Label htmlFor="quick-count">{t("countLabel")}</Label>
          <div className="inline-flex items-center rounded-md border border-input bg-background shadow-xs">
            <Button type="button" variant="ghost" size="icon" className="size-9 rounded-r-none" onClick={() => commit(count - 1)} disabled={unusable || count <= min} aria-controls="quick-count">
              <Minus aria-hidden />
              <span className="sr-only">{t("fewer")}</span>
            </Button>
            <input
              id="quick-count"
              type="number"
              inputMode="numeric"
              min={min}
              max={Math.max(min, max)}
              step={1}
              value={draft ?? String(count)}
              onChange={onType}
              onBlur={() => setDraft(null)}
              onKeyDown={onKeyDown}
              disabled={unusable}
              className="h-9 w-12 border-x border-input bg-transparent text-center font-mono text-base tabular-nums outline-none [appearance:textfield] focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
              data-testid="quick-count"
            />
            <Button type="button" variant="ghost" size="icon" className="size-9 rounded-l-none" onClick={() => commit(count + 1)} disabled={unusable || count >= max} aria-controls="quick-count">
              <Plus aria-hidden />
              <span className="sr-only">{t("more")}</span>
            </Button>
          </div>
        </div>
        {/* One button that changes its job, so keyboard focus stays on it when the mode changes. */}
        <Button type="button" size="sm" variant={active ? "outline" : "default"} onClick={active ? onLeave : onStart} disabled={!active && unusable} data-testid="quick-toggle">
          {active ? <Undo2 aria-hidden /> : <Dices aria-hidden />}
          {active ? t("leave") : t("start")}
        </Button>
      </div>
      <p role="status" aria-live="polite" className={active ? "text-sm font-semibold" : "sr-only"} data-testid="quick-status">
        {active ? t("status", { count, shown, total: formatUsd(total, locale) }) : ""}
      </p>
    </section>
  );
});
