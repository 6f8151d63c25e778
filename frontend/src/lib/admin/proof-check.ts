/**
 * The check of a purchase's proof as the panel shows it (issue 16): how each signal weighs, and
 * the text read from the proof cut into plain and highlighted pieces (the amount and the
 * reference it matched), written as the bank printed them.
 */
import type { ProofCheck, ProofSignal } from "@/lib/api/types";

export type Light = "green" | "amber" | "red";
export const LIGHTS: readonly Light[] = ["green", "amber", "red"];

/** The light a check came to, when it names one the panel knows. */
export function lightOf(check: Pick<ProofCheck, "light"> | null | undefined): Light | null {
  const light = check?.light;
  return light && (LIGHTS as readonly string[]).includes(light) ? (light as Light) : null;
}

/** What one signal alone says, as the server weighs it (crates/domain's proof_signals.rs). */
export function signalLight(signal: Pick<ProofSignal, "kind">): Light {
  switch (signal.kind) {
    case "exactReuse":
    case "nearReuse":
    case "referenceReused":
    case "editedWith":
    case "amountDiffers":
      return "red";
    case "amountMatches":
    case "referenceMatches":
    case "referenceRead":
      return "green";
    default:
      return "amber";
  }
}

/** What to look for in the text read: the amounts and the references the signals name. */
export interface Highlights {
  /** Decimal strings as the API writes them ("1234.56"). */
  amounts: string[];
  references: string[];
}

/**
 * The amounts and references a check's signals read (and the reference the buyer typed, which
 * may be printed as the end of a longer one), for `highlightSegments`.
 */
export function highlightsOf(signals: readonly ProofSignal[], typedReference?: string | null): Highlights {
  const amounts: string[] = [];
  const references: string[] = [];
  for (const signal of signals) {
    if (signal.kind === "amountMatches" || signal.kind === "amountDiffers") amounts.push(signal.read.value);
    else if (signal.kind === "referenceMatches" || signal.kind === "referenceRead") references.push(signal.reference);
    else if (signal.kind === "referenceDiffers") references.push(signal.read);
  }
  if (typedReference?.trim()) references.push(typedReference.trim());
  return { amounts, references };
}

export type SegmentMark = "amount" | "reference";
export interface TextSegment {
  text: string;
  /** null: plain text. */
  mark: SegmentMark | null;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Thousands separators receipts print: '.', ',', an apostrophe, a space or a narrow one. */
const GROUP = "[.,' \\u00a0\\u202f]?";

/**
 * A pattern for an amount as a bank may print it: '1234.56' is found as '1234.56', '1234,56',
 * '1.234,56', '1,234.56' or '1 234,56'; a whole '52' also as '52,00'; fewer printed decimals
 * than read ('1234.50' as '1.234,5') are not sought. Not inside a longer number. Null for no
 * amount.
 */
export function amountPattern(value: string): string | null {
  const match = /^-?(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const whole = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = match[2] ?? "";
  // Groups of three from the right, each optionally preceded by a separator.
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= 3) groups.unshift(whole.slice(Math.max(0, end - 3), end));
  const wholePattern = groups.join(GROUP);
  const trimmed = fraction.replace(/0+$/, "");
  const fractionPattern = trimmed ? `[.,]${trimmed}0*` : "(?:[.,]0+)?";
  return `(?<![\\d])(?<![\\d][.,])${wholePattern}${fractionPattern}(?![.,]?\\d)`;
}

/**
 * A pattern for a reference however it was spaced: its letters and digits in order, in any
 * case, with spaces, dashes (or the other separators a reference may hold) between them. Null
 * when it has no letter or digit.
 */
export function referencePattern(reference: string): string | null {
  const chars = [...reference].filter((c) => /[A-Za-z0-9]/.test(c));
  if (!chars.length) return null;
  return chars.map(escape).join("[\\s\\-./#_\\u2010-\\u2015]*");
}

/**
 * Cuts `text` into plain and marked segments: every place an amount or a reference of
 * `find` appears (see `amountPattern`, `referencePattern`). Where two overlap the one that
 * starts first (then the longer) wins. Joined back, the segments are `text` unchanged.
 */
export function highlightSegments(text: string, find: Partial<Highlights>): TextSegment[] {
  const ranges: { start: number; end: number; mark: SegmentMark }[] = [];
  const collect = (pattern: string | null, mark: SegmentMark) => {
    if (!pattern) return;
    const regex = new RegExp(pattern, "giu");
    for (const match of text.matchAll(regex)) {
      if (match[0].length) ranges.push({ start: match.index, end: match.index + match[0].length, mark });
    }
  };
  for (const amount of new Set(find.amounts ?? [])) collect(amountPattern(amount), "amount");
  for (const reference of new Set(find.references ?? [])) collect(referencePattern(reference), "reference");
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);

  const segments: TextSegment[] = [];
  let at = 0;
  for (const range of ranges) {
    if (range.start < at) continue;
    if (range.start > at) segments.push({ text: text.slice(at, range.start), mark: null });
    segments.push({ text: text.slice(range.start, range.end), mark: range.mark });
    at = range.end;
  }
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), mark: null });
  return segments;
}
