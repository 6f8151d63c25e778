"use client";

import { memo, useDeferredValue, useMemo, useState, type MouseEvent, type ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import { notify as toast } from "@/lib/notify";
import { AlertTriangle, CheckCircle2, ChevronLeft, ChevronRight, Eraser, Loader2, Search, Shuffle, XCircle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { PriceQuote, PurchaseLimits } from "@/lib/api/types";
import { formatCount, formatUsd } from "@/lib/format";
import { isZero, timesCount } from "@/lib/decimal";
import {
  QUICK_PICKS,
  SUMMARY_NUMBERS,
  clampPage,
  limitState,
  pageCount,
  pageOf,
  pickRandom,
  searchNumbers,
  summarize,
  toggleNumber,
} from "@/lib/picker";
import { cn } from "@/lib/utils";

export interface TicketPickerProps {
  /** Available numbers, ascending (from the availability bitmap); null while loading. */
  available: Uint32Array | null;
  loadError?: boolean;
  width: number;
  price: string;
  limits: PurchaseLimits;
  selected: number[];
  onSelectedChange: (selected: number[]) => void;
  quote?: PriceQuote;
  /** Numbers another buyer took while this one was buying, and the server's message naming them. */
  lostRace?: { numbers: number[]; message: string } | null;
  onLostRaceDismiss?: () => void;
  /** Quick buy's count while it is on: the summary prices that many numbers the server draws. */
  randomCount?: number | null;
  /** The quick-buy panel, shown above the search. */
  quickBuy?: ReactNode;
}

/** The ticket picker of SPEC §2: search, 64 a page, toggle, random picks, limits and summary. */
export function TicketPicker({ available: latestAvailable, loadError, width, price, limits, selected, onSelectedChange, quote, lostRace, onLostRaceDismiss, randomCount = null, quickBuy }: TicketPickerProps) {
  const t = useTranslations("picker");
  const locale = useLocale();
  const num = (value: number) => formatCount(value, locale);
  // A counted text picks its plural form from the number and shows it written in the language.
  const counted = (count: number) => ({ count, shown: num(count) });
  // The numbers arrive right after hydration; rendering their page at a lower priority lets
  // React split that work into short tasks instead of one long one on a slow phone.
  const available = useDeferredValue(latestAvailable);
  // The search takes a few milliseconds on 99,999 numbers: each keystroke renders its page at
  // once, in one task, rather than after a deferred second render.
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(0);

  const filtered = useMemo(
    () => (available ? searchNumbers(available, query, width) : new Uint32Array(0)),
    [available, query, width],
  );
  const pages = pageCount(filtered.length);
  const current = clampPage(page, filtered.length);
  const visible = useMemo(() => pageOf(filtered, current), [filtered, current]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const searching = query.replace(/\D/g, "") !== "";

  const refuse = () =>
    toast.error(t("limitReachedTitle"), { description: t("limitReachedText", counted(limits.max)), id: "limit" });

  const toggle = (n: number) => {
    const result = toggleNumber(selected, n, limits.max);
    if (result.refused) refuse();
    else onSelectedChange(result.selected);
  };
  // One listener for the page's buttons, so they carry no handler of their own to re-render.
  const onGridClick = (event: MouseEvent<HTMLDivElement>) => {
    const button = (event.target as Element).closest<HTMLButtonElement>("button[data-number]");
    if (button) toggle(Number(button.dataset.number));
  };

  const random = (count: number) => {
    if (!available) return;
    const result = pickRandom(available, selected, count, limits.max);
    if (result.refused) refuse();
    else onSelectedChange(result.selected);
  };

  const count = selected.length;
  const state = limitState(count, limits.min, limits.max);
  const summary = summarize(selected, SUMMARY_NUMBERS, width);
  const priced = randomCount ?? count;
  const localSubtotal = timesCount(price, priced);
  const fresh = quote && quote.ticketCount === priced ? quote : undefined;
  const subtotal = fresh?.subtotal ?? localSubtotal;
  const total = fresh?.total ?? localSubtotal;
  const discount = fresh && !isZero(fresh.discount) ? fresh.discount : null;

  return (
    <div className="space-y-5">
      {lostRace && (
        <Alert variant="destructive" data-testid="lost-race">
          <AlertTriangle aria-hidden />
          <AlertTitle>{t("takenTitle")}</AlertTitle>
          <AlertDescription className="space-y-2">
            <p>{lostRace.message}</p>
            <ul className="flex flex-wrap gap-1.5" aria-label={t("takenNumbers")}>
              {lostRace.numbers.map((n) => (
                <li key={n} className="rounded-md bg-muted-foreground/30 px-2 py-0.5 font-mono text-sm line-through" data-testid="taken-number">
                  {String(n).padStart(width, "0")}
                </li>
              ))}
            </ul>
            <p>{t("takenHint", { count: lostRace.numbers.length })}</p>
            {onLostRaceDismiss && (
              <Button type="button" variant="outline" size="sm" onClick={onLostRaceDismiss}>
                {t("takenDismiss")}
              </Button>
            )}
          </AlertDescription>
        </Alert>
      )}
      {quickBuy}
      {/* Search and quick picks */}
      <div className="space-y-3">
        <div className="space-y-2">
          <Label htmlFor="ticket-search">{t("searchLabel")}</Label>
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id="ticket-search"
              inputMode="numeric"
              autoComplete="off"
              placeholder={t("searchPlaceholder")}
              className="pl-9"
              value={query}
              maxLength={5}
              onChange={(e) => {
                setQuery(e.target.value);
                setPage(0);
              }}
              aria-describedby="ticket-count"
            />
          </div>
          <p id="ticket-count" className="text-sm text-muted-foreground" aria-live="polite">
            {available === null
              ? t("loading")
              : searching
                ? t("found", counted(filtered.length))
                : t("availableCount", counted(available.length))}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {QUICK_PICKS.map((n) => (
            <Button key={n} type="button" variant="outline" size="sm" onClick={() => random(n)} disabled={!available} title={t("randomLabel", { count: n })} data-testid={`random-${n}`}>
              <Shuffle aria-hidden />
              {t("random", { count: n })}
            </Button>
          ))}
          <Button type="button" variant="ghost" size="sm" onClick={() => onSelectedChange([])} disabled={count === 0}>
            <Eraser aria-hidden />
            {t("clear")}
          </Button>
        </div>
      </div>

      {/* Numbers of this page */}
      {loadError ? (
        <Alert variant="destructive">
          <XCircle aria-hidden />
          <AlertDescription>{t("loadError")}</AlertDescription>
        </Alert>
      ) : available === null ? (
        <div className="flex h-40 items-center justify-center text-sm text-muted-foreground">
          <Loader2 aria-hidden className="mr-2 size-4 animate-spin" />
          {t("loading")}
        </div>
      ) : filtered.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          {searching ? t("noResults") : t("soldOut")}
        </p>
      ) : (
        // 64 a page: 4 columns on a phone, 8 from 640 px, both divide 64 (no ragged last row).
        <div role="group" aria-label={t("numbersLabel")} className="grid grid-cols-4 gap-1.5 sm:grid-cols-8" onClick={onGridClick} data-testid="ticket-grid">
          <NumberPage numbers={visible} selected={selectedSet} width={width} t={t} />
        </div>
      )}

      {pages > 1 && (
        <nav className="flex items-center justify-between gap-2" aria-label={t("page", { page: current + 1, pages: num(pages) })}>
          {/* Icon-only below 640 px, so "Página 1 de 16" keeps to one line on a phone. */}
          <Button type="button" variant="outline" size="sm" className="max-sm:px-2.5" onClick={() => setPage(current - 1)} disabled={current === 0}>
            <ChevronLeft aria-hidden />
            <span className="max-sm:sr-only">{t("previous")}</span>
          </Button>
          <span className="whitespace-nowrap text-sm text-muted-foreground" data-testid="picker-page">
            {t("page", { page: num(current + 1), pages: num(pages) })}
          </span>
          <Button type="button" variant="outline" size="sm" className="max-sm:px-2.5" onClick={() => setPage(current + 1)} disabled={current >= pages - 1} data-testid="picker-next">
            <span className="max-sm:sr-only">{t("next")}</span>
            <ChevronRight aria-hidden />
          </Button>
        </nav>
      )}

      {/* Legend */}
      <div className="flex flex-wrap gap-4 text-xs text-muted-foreground" aria-label={t("legend")} role="note">
        <span className="inline-flex items-center gap-1.5"><span aria-hidden className="size-3.5 rounded-sm bg-primary" />{t("legendSelected")}</span>
        <span className="inline-flex items-center gap-1.5"><span aria-hidden className="size-3.5 rounded-sm border border-success/50 bg-success/5" />{t("legendAvailable")}</span>
        <span className="inline-flex items-center gap-1.5"><span aria-hidden className="size-3.5 rounded-sm bg-muted-foreground/30" />{t("legendUnavailable")}</span>
      </div>

      <p className="text-xs text-muted-foreground">{t("limits", { min: num(limits.min), max: num(limits.max) })}</p>

      {/* Limits */}
      {state === "below" && (
        <Alert variant="destructive" data-testid="limit-below">
          <AlertTriangle aria-hidden />
          <AlertTitle>{t("restrictionTitle")}</AlertTitle>
          <AlertDescription>{t("minNotice", counted(limits.min))}</AlertDescription>
        </Alert>
      )}
      {state === "above" && (
        <Alert variant="destructive" data-testid="limit-above">
          <AlertTriangle aria-hidden />
          <AlertTitle>{t("maxExceededTitle", counted(limits.max))}</AlertTitle>
          <AlertDescription>{t("maxExceededText", counted(limits.max))}</AlertDescription>
        </Alert>
      )}
      {state === "atMax" && (
        <Alert variant="success" data-testid="limit-max">
          <CheckCircle2 aria-hidden />
          <AlertTitle>{t("atMax", counted(limits.max))}</AlertTitle>
          <AlertDescription>{t("atMaxText")}</AlertDescription>
        </Alert>
      )}

      {/* Summary */}
      {priced > 0 && (
        <section aria-labelledby="summary-title" className="space-y-3 rounded-xl border bg-muted/40 p-4" data-testid="picker-summary">
          <div className="flex items-baseline justify-between gap-2">
            <h3 id="summary-title" className="font-semibold">{t("summaryTitle")}</h3>
            <span className="text-sm text-muted-foreground" data-testid="picker-selected-count">
              {randomCount === null ? t("selectedCount", counted(count)) : t("randomCount", counted(randomCount))}
            </span>
          </div>
          {randomCount === null ? (
            <ul className="flex flex-wrap gap-1.5" aria-label={t("summaryTitle")}>
              {summary.labels.map((label) => (
                <li key={label} className="rounded-md bg-primary px-2 py-1 font-mono text-sm text-primary-foreground">{label}</li>
              ))}
              {summary.more > 0 && <li className="rounded-md border px-2 py-1 text-sm">{t("more", { count: num(summary.more) })}</li>}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">{t("randomCountHint", { count: randomCount })}</p>
          )}
          <dl className="space-y-1 text-sm">
            <div className="flex justify-between"><dt>{t("pricePerTicket")}</dt><dd>{formatUsd(price, locale)}</dd></div>
            <div className="flex justify-between"><dt>{t("subtotal")}</dt><dd>{formatUsd(subtotal, locale)}</dd></div>
            {discount && (
              <div className="flex justify-between text-success-strong">
                <dt>{t("discount")}{fresh?.appliedDiscount ? ` (${fresh.appliedDiscount.label})` : ""}</dt>
                <dd>-{formatUsd(discount, locale)}</dd>
              </div>
            )}
            <div className="flex justify-between border-t pt-2 text-base font-bold"><dt>{t("total")}</dt><dd data-testid="picker-total">{formatUsd(total, locale)}</dd></div>
          </dl>
        </section>
      )}
    </div>
  );
}

interface NumberPageProps {
  numbers: Uint32Array;
  selected: ReadonlySet<number>;
  width: number;
  t: ReturnType<typeof useTranslations<"picker">>;
}

/**
 * The page's buttons. They re-render only when the page or the selection of one of its numbers
 * changes: a random pick elsewhere in the raffle leaves them alone. Keyed by slot, so paging and
 * searching update the 64 buttons in place instead of replacing them.
 */
const NumberPage = memo(
  function NumberPage({ numbers, selected, width, t }: NumberPageProps) {
    return Array.from(numbers, (n, slot) => {
      const isSelected = selected.has(n);
      const label = String(n).padStart(width, "0");
      return (
        <button
          key={slot}
          type="button"
          data-number={n}
          aria-pressed={isSelected}
          aria-label={t("ticketLabel", { number: label })}
          className={cn(
            "h-11 rounded-md border font-mono text-sm tabular-nums outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
            isSelected
              ? "border-primary bg-primary font-semibold text-primary-foreground"
              : "border-success/50 bg-success/5 hover:bg-success/15",
          )}
        >
          {label}
        </button>
      );
    });
  },
  (before, after) =>
    before.numbers === after.numbers &&
    before.width === after.width &&
    before.t === after.t &&
    before.numbers.every((n) => before.selected.has(n) === after.selected.has(n)),
);
