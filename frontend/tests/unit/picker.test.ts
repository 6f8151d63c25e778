import { describe, expect, it } from "vitest";
import {
  PAGE_SIZE,
  availableNumbers,
  canPurchase,
  clampPage,
  isAvailable,
  limitState,
  markTaken,
  pageCount,
  pageOf,
  pickRandom,
  searchNumbers,
  summarize,
  toggleNumber,
  withoutTaken,
} from "@/lib/picker";

/** A bitmap where the given numbers are available (MSB first, as the API sends it). */
function bitmapOf(max: number, available: Iterable<number>): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(max / 8));
  for (const n of available) bytes[(n - 1) >> 3] = (bytes[(n - 1) >> 3] as number) | (0x80 >> ((n - 1) & 7));
  return bytes;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("availability bitmap", () => {
  it("reads number n from bit 7-((n-1)%8) of byte (n-1)/8", () => {
    const bitmap = new Uint8Array([0b1000_0001, 0b0100_0000]);
    expect(isAvailable(bitmap, 1)).toBe(true);
    expect(isAvailable(bitmap, 2)).toBe(false);
    expect(isAvailable(bitmap, 8)).toBe(true);
    expect(isAvailable(bitmap, 10)).toBe(true);
    expect(Array.from(availableNumbers(bitmap, 16))).toEqual([1, 8, 10]);
  });

  it("ignores padding bits past maxTickets", () => {
    expect(Array.from(availableNumbers(new Uint8Array([0xff, 0xff]), 10))).toEqual(range(1, 10));
  });

  it("lists 99,999 numbers quickly", () => {
    const bitmap = new Uint8Array(12500).fill(0xff);
    const started = performance.now();
    const all = availableNumbers(bitmap, 99_999);
    expect(all.length).toBe(99_999);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("search", () => {
  const numbers = availableNumbers(bitmapOf(9999, range(1, 9999)), 9999);

  it("keeps numbers whose padded label contains the digits", () => {
    const found = Array.from(searchNumbers(numbers, "777", 4));
    expect(found).toEqual([777, 1777, 2777, 3777, 4777, 5777, 6777, 7770, 7771, 7772, 7773, 7774, 7775, 7776, 7777, 7778, 7779, 8777, 9777]);
  });

  it("matches the zero padding the buyer sees", () => {
    expect(Array.from(searchNumbers(numbers, "0007", 4))).toEqual([7]);
  });

  it("finds exactly the numbers whose shown label contains the digits", () => {
    const wide = new Uint32Array([...range(1, 1200), 12345, 99999, 100000, 123456]);
    for (const width of [4, 5]) {
      for (const query of ["0", "1", "00", "01", "12", "90", "000", "012", "123", "0001", "1234", "00123", "12345", "123456", "0000000"]) {
        const expected = Array.from(wide).filter((n) => String(n).padStart(width, "0").includes(query));
        expect(Array.from(searchNumbers(wide, query, width)), `${query} in width ${width}`).toEqual(expected);
      }
    }
  });

  it("returns every number for an empty or non-numeric query", () => {
    expect(searchNumbers(numbers, "", 4).length).toBe(9999);
    expect(searchNumbers(numbers, "abc", 4).length).toBe(9999);
  });

  it("searches 99,999 numbers without touching the DOM in well under a frame budget", () => {
    const big = availableNumbers(new Uint8Array(12500).fill(0xff), 99_999);
    const started = performance.now();
    const found = searchNumbers(big, "12345", 5);
    expect(Array.from(found)).toEqual([12345]);
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe("paging", () => {
  const numbers = new Uint32Array(range(1, 130));

  it("shows 64 numbers a page", () => {
    expect(PAGE_SIZE).toBe(64);
    expect(pageCount(130)).toBe(3);
    expect(Array.from(pageOf(numbers, 0))).toEqual(range(1, 64));
    expect(Array.from(pageOf(numbers, 2))).toEqual([129, 130]);
  });

  it("clamps pages to the ends", () => {
    expect(clampPage(-1, 130)).toBe(0);
    expect(clampPage(9, 130)).toBe(2);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(64)).toBe(1);
  });
});

describe("toggle", () => {
  it("adds, removes and refuses past the maximum", () => {
    expect(toggleNumber([], 5, 2)).toEqual({ selected: [5], refused: false });
    expect(toggleNumber([5], 3, 2)).toEqual({ selected: [3, 5], refused: false });
    expect(toggleNumber([3, 5], 9, 2)).toEqual({ selected: [3, 5], refused: true });
    expect(toggleNumber([3, 5], 5, 2)).toEqual({ selected: [3], refused: false });
  });
});

describe("random picks", () => {
  const numbers = new Uint32Array(range(1, 100));
  let seed = 1;
  const rng = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  };

  it("adds distinct unselected available numbers", () => {
    const result = pickRandom(numbers, [1, 2], 10, 50, rng);
    expect(result.added).toHaveLength(10);
    expect(new Set(result.selected).size).toBe(12);
    for (const n of result.added) {
      expect([1, 2]).not.toContain(n);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(100);
    }
  });

  it("stops at the remaining allowance", () => {
    const result = pickRandom(numbers, [1, 2, 3], 10, 5, rng);
    expect(result.added).toHaveLength(2);
    expect(result.selected).toHaveLength(5);
  });

  it("is refused when the allowance is used up", () => {
    expect(pickRandom(numbers, [1, 2], 5, 2, rng)).toMatchObject({ refused: true, added: [] });
  });

  it("never picks more than what is free", () => {
    const few = new Uint32Array([4, 8, 15]);
    const result = pickRandom(few, [8], 10, 10, rng);
    expect(result.selected).toEqual([4, 8, 15]);
  });
});

describe("limits", () => {
  it("classifies a count against min and max", () => {
    expect(limitState(0, 2, 5)).toBe("empty");
    expect(limitState(1, 2, 5)).toBe("below");
    expect(limitState(3, 2, 5)).toBe("within");
    expect(limitState(5, 2, 5)).toBe("atMax");
    expect(limitState(6, 2, 5)).toBe("above");
  });

  it("shows the form only within the limits", () => {
    expect(canPurchase(0, 1, 1)).toBe(false);
    expect(canPurchase(1, 1, 1)).toBe(true);
    expect(canPurchase(1, 2, 5)).toBe(false);
    expect(canPurchase(6, 2, 5)).toBe(false);
  });
});

describe("summary and taken numbers", () => {
  it("shows the first 8 padded and counts the rest", () => {
    expect(summarize(range(1, 10), 8)).toEqual({
      labels: ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008"],
      more: 2,
    });
    expect(summarize([7], 8, 5)).toEqual({ labels: ["00007"], more: 0 });
  });

  it("keeps the rest of the selection when some numbers were taken", () => {
    expect(withoutTaken([3, 7, 9], [7])).toEqual([3, 9]);
    const bitmap = markTaken(bitmapOf(16, [3, 7, 9]), [7]);
    expect(Array.from(availableNumbers(bitmap, 16))).toEqual([3, 9]);
  });
});
