/**
 * Ticket picker logic, pure and fast on a 99,999-number raffle: the availability bitmap becomes
 * one typed array of available numbers; search, paging and random picks work on that array and
 * never on the DOM, and the page renders at most PAGE_SIZE numbers.
 */
export const PAGE_SIZE = 64;
export const QUICK_PICKS = [1, 5, 10] as const;
export const SUMMARY_NUMBERS = 8;
export const RECEIPT_NUMBERS = 3;

/** Whether number n (1-based) is available: bit 7-((n-1)%8) of byte (n-1)/8. */
export function isAvailable(bitmap: Uint8Array, n: number): boolean {
  return ((bitmap[(n - 1) >> 3] ?? 0) & (0x80 >> ((n - 1) & 7))) !== 0;
}

/** The available numbers in ascending order. */
export function availableNumbers(bitmap: Uint8Array, maxTickets: number): Uint32Array {
  const out = new Uint32Array(maxTickets);
  let count = 0;
  for (let byte = 0; byte < bitmap.length; byte++) {
    const bits = bitmap[byte] ?? 0;
    if (bits === 0) continue;
    for (let bit = 0; bit < 8; bit++) {
      const n = byte * 8 + bit + 1;
      if (n > maxTickets) break;
      if (bits & (0x80 >> bit)) out[count++] = n;
    }
  }
  return out.subarray(0, count);
}

/**
 * Numbers whose shown (zero-padded) label contains the query's digits. An empty query keeps
 * them all. The digits are compared as integers, one window of the label at a time: no string
 * per number (50,000 of them made every keystroke a long task on a phone).
 */
export function searchNumbers(numbers: Uint32Array, query: string, width: number): Uint32Array {
  const digits = query.replace(/\D/g, "");
  if (!digits) return numbers;
  // No label is longer than 10 digits (Uint32), so a longer query matches nothing.
  if (digits.length > Math.max(width, 10)) return new Uint32Array(0);
  const wanted = Number(digits);
  const span = 10 ** digits.length;
  // Windows within the padded width (its leading zeros included), then any further digits of a
  // number wider than `width`.
  const windows = width - digits.length + 1;
  const out = new Uint32Array(numbers.length);
  let count = 0;
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i] as number;
    for (let rest = n, at = 0; at < windows || rest >= span / 10; at++, rest = Math.floor(rest / 10)) {
      if (rest % span === wanted) {
        out[count++] = n;
        break;
      }
    }
  }
  return out.subarray(0, count);
}

export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function clampPage(page: number, total: number, pageSize = PAGE_SIZE): number {
  return Math.min(Math.max(0, page), pageCount(total, pageSize) - 1);
}

/** The numbers of one page (0-based). */
export function pageOf(numbers: Uint32Array, page: number, pageSize = PAGE_SIZE): Uint32Array {
  const start = clampPage(page, numbers.length, pageSize) * pageSize;
  return numbers.subarray(start, start + pageSize);
}

export type ToggleResult = { selected: number[]; refused: boolean };

/** Adds or removes a number; adding is refused once the allowance is used up. */
export function toggleNumber(selected: readonly number[], n: number, max: number): ToggleResult {
  if (selected.includes(n)) return { selected: selected.filter((x) => x !== n), refused: false };
  if (selected.length >= max) return { selected: [...selected], refused: true };
  return { selected: [...selected, n].sort((a, b) => a - b), refused: false };
}

export type RandomResult = { selected: number[]; added: number[]; refused: boolean };

/**
 * Adds up to `count` random available numbers not yet selected, never past the allowance.
 * `refused` is true when the allowance was already used up (nothing could be added).
 */
export function pickRandom(
  available: Uint32Array,
  selected: readonly number[],
  count: number,
  max: number,
  random: () => number = Math.random,
): RandomResult {
  const room = Math.max(0, max - selected.length);
  if (room === 0) return { selected: [...selected], added: [], refused: true };
  const taken = new Set(selected);
  const free = available.length - selected.filter((n) => isIn(available, n)).length;
  const want = Math.min(count, room, free);
  const added = new Set<number>();
  if (want > 0 && want * 4 < free) {
    // Sparse pick on a big pool: draw until enough distinct free numbers.
    while (added.size < want) {
      const n = available[Math.floor(random() * available.length)] as number;
      if (!taken.has(n)) added.add(n);
    }
  } else if (want > 0) {
    // Small pool: a partial Fisher–Yates over the free numbers.
    const pool = Array.from(available).filter((n) => !taken.has(n));
    for (let i = 0; i < want; i++) {
      const j = i + Math.floor(random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
      added.add(pool[i] as number);
    }
  }
  const list = [...added];
  return { selected: [...selected, ...list].sort((a, b) => a - b), added: list, refused: false };
}

/** Binary search in the ascending array. */
export function isIn(numbers: Uint32Array, n: number): boolean {
  let lo = 0;
  let hi = numbers.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = numbers[mid] as number;
    if (v === n) return true;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export type LimitState = "empty" | "below" | "within" | "atMax" | "above";

/** Where a count stands against the purchase limits (SPEC §5). */
export function limitState(count: number, min: number, max: number): LimitState {
  if (count === 0) return "empty";
  if (count < min) return "below";
  if (count > max) return "above";
  if (count === max) return "atMax";
  return "within";
}

/** Whether the purchase form may show: at least one number and within the limits. */
export function canPurchase(count: number, min: number, max: number): boolean {
  const state = limitState(count, min, max);
  return state === "within" || state === "atMax";
}

/** The first `shown` numbers padded, and how many more: (["0007", "0042"], 3). */
export function summarize(numbers: readonly number[], shown: number, width = 4): { labels: string[]; more: number } {
  return {
    labels: numbers.slice(0, shown).map((n) => String(n).padStart(width, "0")),
    more: Math.max(0, numbers.length - shown),
  };
}

/** Drops the numbers someone else took (a 409 tickets_taken), keeping the rest selected. */
export function withoutTaken(selected: readonly number[], taken: readonly number[]): number[] {
  const gone = new Set(taken);
  return selected.filter((n) => !gone.has(n));
}

/** Marks taken numbers unavailable in a copy of the bitmap. */
export function markTaken(bitmap: Uint8Array, taken: readonly number[]): Uint8Array {
  const copy = bitmap.slice();
  for (const n of taken) {
    const i = (n - 1) >> 3;
    if (i < copy.length) copy[i] = (copy[i] as number) & ~(0x80 >> ((n - 1) & 7));
  }
  return copy;
}
