"use client";

import { useEffect, useMemo, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { CalendarDays, ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { formatDay, localDay, monthGrid, parseDay } from "@/lib/admin/dates";
import { formatCalendarDay } from "@/lib/format";
import { cn } from "@/lib/utils";

/**
 * A day picker that follows the panel's language, not the browser's: the field shows dd/mm/aaaa
 * in Spanish and mm/dd/yyyy in English, reads those and ISO days (2026-12-20), and a calendar
 * names months and weekdays in the same language. `value` and `onChange` use YYYY-MM-DD ("" for
 * none). Text it cannot read is never swapped for a day: the field says so under itself and
 * `onUnreadableChange` tells the form, which must refuse to save meanwhile.
 */
export function DateField({
  id,
  value,
  onChange,
  className,
  describedBy,
  invalid: invalidFromForm,
  onUnreadableChange,
}: {
  id: string;
  value: string;
  onChange: (day: string) => void;
  className?: string;
  describedBy?: string;
  /** The form found the day wrong (e.g. required and empty). */
  invalid?: boolean;
  /** The typed text cannot be read as a day (true) or can again (false). */
  onUnreadableChange?: (unreadable: boolean) => void;
}) {
  const t = useTranslations("admin.dateField");
  const locale = useLocale();
  const [text, setText] = useState(() => formatDay(value, locale));
  const [shown, setShown] = useState({ value, locale });
  const [open, setOpen] = useState(false);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => onUnreadableChange?.(invalid), [invalid, onUnreadableChange]);
  // The value or the language changed from outside (clear button, language toggle, calendar): show it.
  if (shown.value !== value || shown.locale !== locale) {
    setShown({ value, locale });
    setText(formatDay(value, locale));
    setInvalid(false);
  }

  /** Reads the text; while typing, the text is left as it is (reformatting would fight the keys). */
  const commit = (raw: string, typing = false) => {
    if (!raw.trim()) {
      setInvalid(false);
      if (value) onChange("");
      return;
    }
    const day = parseDay(raw, locale);
    setInvalid(day === null);
    if (day === null) return;
    if (day !== value) {
      if (typing) setShown({ value: day, locale });
      onChange(day);
    }
    // Show the day as the language writes it (a pasted ISO day becomes 20/12/2026).
    if (!typing) setText(formatDay(day, locale));
  };
  const errorId = `${id}-unreadable`;

  return (
    <div className={cn("grid min-w-0 grow gap-1", className)}>
    <div className="relative flex min-w-0">
      <Input
        id={id}
        className="h-10 min-w-0 pr-10 text-sm"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t("placeholder")}
        value={text}
        aria-invalid={invalid || invalidFromForm || undefined}
        aria-describedby={[invalid ? errorId : "", describedBy ?? ""].join(" ").trim() || undefined}
        onChange={(e) => {
          setText(e.target.value);
          // A complete day (typed or pasted) applies at once; a partial one waits for blur or Enter.
          // An ISO day is complete with two-digit month and day ("2026-12-2" may go on to "…-20").
          if (/^\s*(\d{1,2}\D\d{1,2}\D\d{4}|\d{4}\D\d{2}\D\d{2})\s*$/.test(e.target.value)) commit(e.target.value, true);
        }}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit(e.currentTarget.value);
        }}
        data-testid={`${id}-text`}
      />
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button type="button" variant="ghost" size="icon" className="absolute right-0.5 top-0.5 size-9" aria-label={t("open")} title={t("open")}>
            <CalendarDays aria-hidden />
          </Button>
        </PopoverTrigger>
        <PopoverContent align="end" className="w-auto" aria-label={t("calendar")}>
          <Calendar
            locale={locale}
            selected={value}
            onPick={(day) => {
              onChange(day);
              setOpen(false);
            }}
          />
        </PopoverContent>
      </Popover>
    </div>
      {invalid && (
        <p id={errorId} role="alert" className="text-xs font-medium text-danger-strong" data-testid={`${id}-unreadable`}>
          {t("invalid", { example: formatDay("2026-12-20", locale) })}
        </p>
      )}
    </div>
  );
}

function Calendar({ locale, selected, onPick }: { locale: string; selected: string; onPick: (day: string) => void }) {
  const t = useTranslations("admin.dateField");
  const today = localDay();
  const start = selected || today;
  const [month, setMonth] = useState({ year: Number(start.slice(0, 4)), month: Number(start.slice(5, 7)) - 1 });
  const weeks = useMemo(() => monthGrid(month.year, month.month, locale), [month, locale]);
  const title = formatCalendarDay(new Date(Date.UTC(month.year, month.month, 1)), locale, "month");
  const step = (delta: number) => setMonth(({ year, month: m }) => ({ year: m + delta < 0 ? year - 1 : m + delta > 11 ? year + 1 : year, month: (m + delta + 12) % 12 }));

  return (
    <div className="grid gap-2" data-testid="date-calendar">
      <div className="flex items-center justify-between gap-2">
        <Button type="button" variant="ghost" size="icon" className="size-8" onClick={() => step(-1)} aria-label={t("previousMonth")}>
          <ChevronLeft aria-hidden />
        </Button>
        <p className="text-sm font-medium first-letter:uppercase" aria-live="polite" data-testid="calendar-month">
          {title}
        </p>
        <Button type="button" variant="ghost" size="icon" className="size-8" onClick={() => step(1)} aria-label={t("nextMonth")}>
          <ChevronRight aria-hidden />
        </Button>
      </div>
      <table className="border-collapse text-center text-sm">
        <thead>
          <tr>
            {weeks[0]!.map(({ day }) => (
              <th key={day} scope="col" className="size-9 text-xs font-normal text-muted-foreground">
                {formatCalendarDay(day, locale, "weekday").replace(".", "")}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]!.day}>
              {week.map(({ day, inMonth }) => (
                <td key={day} className="p-0">
                  <button
                    type="button"
                    onClick={() => onPick(day)}
                    aria-label={formatCalendarDay(day, locale, "long")}
                    aria-pressed={day === selected}
                    className={cn(
                      "size-9 rounded-md tabular-nums outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50",
                      !inMonth && "text-muted-foreground",
                      day === today && "font-bold underline",
                      day === selected && "bg-primary text-primary-foreground hover:bg-primary/90",
                    )}
                  >
                    {Number(day.slice(8))}
                  </button>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
