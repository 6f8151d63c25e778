import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convert, timesCount } from "@/lib/decimal";
import {
  formatAtLeast,
  formatConverted,
  formatDate,
  formatCount,
  formatMoney,
  formatNumber,
  formatRate,
  formatTime,
  formatUpcoming,
  formatUsd,
  padTicket,
  soldPercent,
  ticketWidth,
} from "@/lib/format";

const moneyCases = JSON.parse(readFileSync(join(process.cwd(), "../docs/formats/money-cases.json"), "utf8")) as {
  cases: { currency: string; amount: string; lang: string; text: string }[];
};

// On screen the space after the symbol is a no-break one (U+00A0); the cases write a plain space.
const nb = (s: string) => s.replace(/\u00a0/g, " ");

describe("the product's money format (docs/formats/money-cases.json, shared with the Rust side)", () => {
  it.each(moneyCases.cases)("$currency $amount in $lang is $text", ({ currency, amount, lang, text }) => {
    expect(nb(formatMoney(amount, currency, lang))).toBe(text);
  });

  it("keeps the symbol and the amount on one line", () => {
    expect(formatUsd("13.00", "es")).toBe("US$\u00a013,00");
  });
});

describe("money", () => {
  it("shows USD as the product writes money: symbol first, 2 decimals, Spanish separators", () => {
    expect(nb(formatUsd("13.00", "es"))).toBe("US$ 13,00");
    expect(nb(formatUsd("1234567.5", "es"))).toBe("US$ 1.234.567,50");
  });

  it("multiplies decimal strings exactly (no float)", () => {
    expect(timesCount("0.10", 3)).toBe("0.30");
    expect(timesCount("13.00", 99999)).toBe("1299987.00");
    expect(convert("0.30", "36.5012", 2)).toBe("10.95");
    expect(convert("1.005", "1", 2)).toBe("1.01");
  });
});

describe("money in English", () => {
  it("formats USD, converted totals and rates through the English locale, not es-ES", () => {
    expect(nb(formatUsd("1234567.5", "en"))).toBe("US$ 1,234,567.50");
    expect(nb(formatConverted("100.00", "36.5055", "VES", "en"))).toBe("Bs 3,650.55");
    expect(nb(formatConverted("26.00", "36.5", "VES", "en", true))).toBe("Bs 949");
    expect(nb(formatConverted("26.00", "4000", "COP", "en"))).toBe("COP 104,000");
    expect(nb(formatConverted("26.00", "0.92", "EUR", "en"))).toBe("€ 23.92");
    expect(formatRate("4000", "en")).toBe("4,000.0000");
  });
  it("writes dates and counts through the English locale", () => {
    expect(formatDate("2026-12-20T23:59:59.999Z", "en")).toBe("December 20, 2026");
    expect(formatDate("2026-12-20T23:59:59.999Z", "es")).toBe("20 de diciembre de 2026");
    expect(formatCount(12345, "en")).toBe("12,345");
  });
});

describe("converted totals", () => {
  it("shows VES as Bs with 2 decimals, and 0 in the button", () => {
    expect(nb(formatConverted("26.00", "36.5", "VES", "es"))).toBe("Bs 949,00");
    expect(nb(formatConverted("26.00", "36.5", "VES", "es", true))).toBe("Bs 949");
    expect(nb(formatConverted("100.00", "36.5055", "VES", "es"))).toBe("Bs 3.650,55");
  });

  it("shows COP with no decimals", () => {
    expect(nb(formatConverted("26.00", "4000", "COP", "es"))).toBe("COP 104.000");
  });

  it("shows other currencies with their symbol first, as USD", () => {
    expect(nb(formatConverted("26.00", "0.92", "EUR", "es"))).toBe("€ 23,92");
  });

  it("shows the rate with 4 decimals", () => {
    expect(formatRate("36.5", "es")).toBe("36,5000");
    expect(formatRate("4000", "es")).toBe("4.000,0000");
    expect(formatRate("0.923456", "es")).toBe("0,9235");
  });
});

describe("ticket numbers", () => {
  it("pads to max(4, digits of maxTickets)", () => {
    expect(ticketWidth(999)).toBe(4);
    expect(ticketWidth(99_999)).toBe(5);
    expect(padTicket(7, ticketWidth(9999))).toBe("0007");
    expect(padTicket(7, ticketWidth(99_999))).toBe("00007");
  });
});

describe("counts and shares in the page's language", () => {
  it("uses the Spanish decimal comma and grouping in es, the English ones in en", () => {
    const percent = soldPercent(9, 999);
    expect(percent).toBe(0.9);
    expect(formatNumber(percent, "es")).toBe("0,9");
    expect(formatNumber(percent, "en")).toBe("0.9");
    expect(formatNumber(99_994, "es")).toBe("99.994");
    expect(formatNumber(99_994, "en")).toBe("99,994");
    expect(formatNumber(100, "es")).toBe("100");
  });

  it("shows the static marketing counts as N+", () => {
    expect(formatAtLeast(50_000, "es")).toBe("50.000+");
    expect(formatAtLeast(50_000, "en")).toBe("50,000+");
  });
});

describe("counts without Intl", () => {
  it("writes whole counts exactly as Intl does in both languages", () => {
    const values = [0, 1, 7, 999, 1000, 1234, 9999, 10_000, 12_345, 99_999, 100_000, 999_999, 1_000_000, 123_456_789, -5, -1234, -12_345];
    for (let n = 0; n <= 120_000; n += 997) values.push(n);
    for (const value of values) {
      expect(formatCount(value, "es")).toBe(new Intl.NumberFormat("es-ES", { maximumFractionDigits: 1 }).format(value));
      expect(formatCount(value, "en")).toBe(new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }).format(value));
    }
  });

  it("leaves fractions to Intl", () => {
    expect(formatCount(0.5, "es")).toBe("0,5");
    expect(formatCount(1234.5, "en")).toBe("1,234.5");
  });
});

describe("times of day (when held numbers may come back)", () => {
  // Built from the viewer's local clock, so the expectations hold in any time zone.
  const at = (day: number, hour: number, minute: number) => new Date(2026, 10, day, hour, minute).toISOString();
  const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

  it("writes a time in the viewer's zone, 24 h in Spanish and 12 h in English", () => {
    expect(formatTime(at(20, 14, 5), "es")).toBe("14:05");
    expect(spaces(formatTime(at(20, 14, 5), "en"))).toBe("2:05 PM");
  });

  it("gives the time alone on the same day, and the day too otherwise", () => {
    const now = new Date(2026, 10, 20, 9, 0).getTime();
    expect(formatUpcoming(at(20, 23, 59), "es", now)).toEqual({ sameDay: true, text: "23:59" });
    const tomorrow = formatUpcoming(at(21, 0, 30), "es", now);
    expect(tomorrow.sameDay).toBe(false);
    expect(tomorrow.text).toContain("21");
    expect(tomorrow.text).toContain("0:30");
  });
});
