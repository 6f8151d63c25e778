import { convert, parseDecimal, round, toDecimalString } from "./decimal";
import { resolveLocale, type Locale } from "./i18n/config";

/**
 * Every number, amount and date the site shows is written here, in the page's language (an
 * ESLint rule keeps Intl and locale names out of other files). Money and rates stay decimal
 * strings all the way (never a float).
 */

/**
 * Intl formatters are costly to build (the first one of a locale loads its data: tens of ms on
 * a phone), so each is built once, when first needed, not while the page's modules load.
 */
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The Intl locale of each UI language: this module is the only place that names them. */
const INTL_LOCALE: Record<Locale, string> = { es: "es-ES", en: "en-US" };
const intlOf = (locale: string) => INTL_LOCALE[resolveLocale(locale)];

/** How each language writes a number: the thousands and the decimal separator. */
const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  es: { group: ".", decimal: "," },
  en: { group: ",", decimal: "." },
};

/** The symbol shown before an amount; a currency not named here shows its ISO code. */
const SYMBOLS: Record<string, string> = { USD: "US$", VES: "Bs", EUR: "€" };

/** Decimals of a currency in the product's money format: COP none, the others 2. */
function currencyDigits(currency: string): number {
  return currency === "COP" ? 0 : 2;
}

/**
 * The product's one money format (docs/formats/money-cases.json, shared with the Rust
 * formatter): symbol, a space, the amount rounded half away from zero to `digits` decimals with
 * the language's separators, thousands always grouped: "US$ 13,00" (es) / "US$ 13.00" (en),
 * "COP 104.001", "Bs 1.234.567,01". Written by hand on the decimal string (never a float), since
 * Intl puts the symbol after the amount in es and does not group 4-digit amounts there. The space
 * is a no-break one on screen, so a narrow card never leaves "US$" alone at a line's end.
 */
export function formatMoney(amount: string, currency: string, locale: string, digits = currencyDigits(currency)): string {
  return `${SYMBOLS[currency] ?? currency}\u00a0${groupedDecimal(amount, digits, locale)}`;
}

function groupedDecimal(amount: string, digits: number, locale: string): string {
  const { group, decimal } = SEPARATORS[resolveLocale(locale)];
  const text = toDecimalString(round(parseDecimal(amount), digits));
  const negative = text.startsWith("-");
  const [whole = "0", fraction] = (negative ? text.slice(1) : text).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, group);
  return `${negative ? "-" : ""}${grouped}${fraction ? `${decimal}${fraction}` : ""}`;
}

/** A USD amount from the API in the page's language: "13.00" → "US$ 13,00" (es) / "US$ 13.00" (en). */
export function formatUsd(amount: string, locale: string): string {
  return formatMoney(amount, "USD", locale);
}

/**
 * An amount read on a payment proof, with the decimals it was printed with: "1234.5" in VES →
 * "Bs 1.234,5"; without a currency, the number alone ("1.234,56" / "1,234.56").
 */
export function formatReadAmount(value: string, currency: string | null | undefined, locale: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(value)) return currency ? `${value} ${currency}` : value;
  const digits = value.includes(".") ? value.length - value.indexOf(".") - 1 : 0;
  return currency ? formatMoney(value, currency, locale, digits) : groupedDecimal(value, digits, locale);
}

/** Decimals shown for a converted total: the currency's own, but none for VES in the button. */
function convertedDigits(currency: string, inButton = false): number {
  if (currency === "VES" && inButton) return 0;
  return currencyDigits(currency);
}

/**
 * A total in another currency at the method's rate (rate × total), exact to the shown
 * decimals: "Bs 1.234,56" / "Bs 1,234.56" (or no decimals in the button), "COP 104.000".
 */
export function formatConverted(totalUsd: string, rate: string, currency: string, locale: string, inButton = false): string {
  const digits = convertedDigits(currency, inButton);
  return formatMoney(convert(totalUsd, rate, digits), currency, locale, digits);
}

/** The rate with 4 decimals, for "Tasa: 1 USD = 36,5000 VES" / "Rate: 1 USD = 36.5000 VES". */
export function formatRate(rate: string, locale: string): string {
  return groupedDecimal(rate, 4, locale);
}

/** Ticket numbers shown zero-padded to max(4, digits of maxTickets): 7 → "0007". */
export function ticketWidth(maxTickets: number): number {
  return Math.max(4, String(maxTickets).length);
}

export function padTicket(n: number, width = 4): string {
  return String(n).padStart(width, "0");
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${intlOf(locale)}|${JSON.stringify(options)}`;
  let formatter = dateFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(intlOf(locale), options);
    dateFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * How far `timeZone`'s clock is ahead of UTC at the instant `utcMs`, in milliseconds (a lottery's
 * local draw time read on its own clock). Throws RangeError for a name Intl does not know.
 */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const format = dateFormat("en", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  const parts = format.formatToParts(utcMs);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** A date in the page's language (draw dates are end-of-day UTC, so the day is read in UTC). */
export function formatDate(iso: string, locale: string, withTime = false): string {
  return dateFormat(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
    ...(withTime ? { hour: "2-digit", minute: "2-digit" } : {}),
  }).format(new Date(iso));
}

/** A moment in the viewer's time zone: "12 mar 2026, 14:05" (medium) or "12/3/26, 14:05" (short). */
export function formatDateTime(iso: string, locale: string, style: "short" | "medium" = "medium"): string {
  return dateFormat(locale, { dateStyle: style, timeStyle: "short" }).format(new Date(iso));
}

/** A moment's time of day in the viewer's time zone: "14:05" (es) / "2:05 PM" (en). */
export function formatTime(iso: string, locale: string): string {
  return dateFormat(locale, { timeStyle: "short" }).format(new Date(iso));
}

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(locale: string, numeric: "always" | "auto"): Intl.RelativeTimeFormat {
  const key = `${intlOf(locale)}|${numeric}`;
  let formatter = relativeFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.RelativeTimeFormat(intlOf(locale), { numeric, style: "short" });
    relativeFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * How long ago a moment was, short, in the page's language: "hace 2 h" / "2 hr. ago", "hace 3 d";
 * under a minute (or a moment ahead of a clock running behind) "ahora" / "now".
 */
export function formatAge(iso: string, locale: string, now: number): string {
  const seconds = Math.floor((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return relativeFormat(locale, "auto").format(0, "second");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relativeFormat(locale, "always").format(-minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relativeFormat(locale, "always").format(-hours, "hour");
  return relativeFormat(locale, "always").format(-Math.floor(hours / 24), "day");
}

/**
 * A coming moment in the viewer's time zone, as short as it can be read: its time alone when it
 * falls on the same day as `now` ("14:05"), else day and time ("21 nov 2026, 9:30").
 */
export function formatUpcoming(iso: string, locale: string, now: number): { sameDay: boolean; text: string } {
  const sameDay = new Date(iso).toDateString() === new Date(now).toDateString();
  return { sameDay, text: sameDay ? formatTime(iso, locale) : formatDateTime(iso, locale) };
}

/**
 * A calendar day ("2026-03-12", or a Date at UTC midnight) in the page's language:
 * "jueves, 12 de marzo de 2026" (long), "12 mar" (short), "marzo de 2026" (month),
 * "jue" (weekday).
 */
export function formatCalendarDay(day: string | Date, locale: string, style: "long" | "short" | "month" | "weekday"): string {
  const options: Record<typeof style, Intl.DateTimeFormatOptions> = {
    long: { dateStyle: "full" },
    short: { day: "numeric", month: "short" },
    month: { month: "long", year: "numeric" },
    weekday: { weekday: "short" },
  };
  const date = typeof day === "string" ? new Date(`${day}T12:00:00Z`) : day;
  return dateFormat(locale, { ...options[style], timeZone: "UTC" }).format(date);
}

/** A chart axis figure: 1200 → "1,2 mil" (es) / "1.2K" (en). */
export function formatCompact(value: number, locale: string): string {
  return numberFormat(intlOf(locale), { notation: "compact", maximumFractionDigits: 1 }).format(value);
}

/**
 * A count or share in the page's language: 12345 → "12.345" (es) / "12,345" (en), 0.9 → "0,9" /
 * "0.9".
 */
export function formatNumber(value: number, locale: string, maximumFractionDigits = 1): string {
  return numberFormat(intlOf(locale), { maximumFractionDigits }).format(value);
}

/**
 * A whole count in the page's language, as formatNumber writes it, without an Intl object: the
 * first Intl formatter a page builds loads the locale's data (about 30 ms at 1x CPU here, a long
 * task on a phone), and the ticket picker shows counts as soon as it hydrates. es-ES groups from
 * 10.000 (CLDR's minimum grouping digits is 2 there), en-US from 1,000. Checked against Intl in
 * tests/unit/format.test.ts; anything but a safe integer goes to Intl.
 */
export function formatCount(value: number, locale: string): string {
  if (!Number.isSafeInteger(value)) return formatNumber(value, locale);
  const es = resolveLocale(locale) === "es";
  const digits = String(Math.abs(value));
  const grouped = digits.length < (es ? 5 : 4) ? digits : digits.replace(/\B(?=(\d{3})+$)/g, es ? "." : ",");
  return value < 0 ? `-${grouped}` : grouped;
}

/** A static marketing count as "50.000+" (es) / "50,000+" (en). */
export function formatAtLeast(value: number, locale: string): string {
  return `${formatNumber(value, locale, 0)}+`;
}

/** Sold share in percent, 0–100, one decimal at most (display only). */
export function soldPercent(sold: number, max: number): number {
  if (max <= 0) return 0;
  return Math.min(100, Math.round((sold / max) * 1000) / 10);
}
