// The pure side of the proof check in the panel (issue 16): which signals weigh how, and the
// text read from a proof cut into plain and marked pieces, amounts and references found however
// the bank printed them.
import { describe, expect, it } from "vitest";
import {
  amountPattern,
  highlightSegments,
  highlightsOf,
  lightOf,
  referencePattern,
  signalLight,
  type TextSegment,
} from "@/lib/admin/proof-check";
import type { ProofSignal } from "@/lib/api/types";
import { formatReadAmount } from "@/lib/format";

/** The marked pieces only, as "mark:text". */
const marked = (segments: TextSegment[]) => segments.filter((s) => s.mark).map((s) => `${s.mark}:${s.text}`);
const joined = (segments: TextSegment[]) => segments.map((s) => s.text).join("");

describe("finding the amount read", () => {
  it.each([
    ["Monto: Bs. 1.234,56", "1.234,56"],
    ["Amount $1,234.56 sent", "1,234.56"],
    ["Total 1234.56", "1234.56"],
    ["Total 1234,56", "1234,56"],
    ["Monto 1 234,56 Bs", "1 234,56"],
    ["Bs.1.234,56", "1.234,56"],
  ])("finds 1234.56 in %j", (text, found) => {
    expect(marked(highlightSegments(text, { amounts: ["1234.56"] }))).toEqual([`amount:${found}`]);
  });

  it("finds a whole amount with or without its zero decimals, and grouped thousands", () => {
    expect(marked(highlightSegments("Pagaste 52 USDT", { amounts: ["52"] }))).toEqual(["amount:52"]);
    expect(marked(highlightSegments("Monto 52,00", { amounts: ["52"] }))).toEqual(["amount:52,00"]);
    expect(marked(highlightSegments("Valor $ 120.000", { amounts: ["120000"] }))).toEqual(["amount:120.000"]);
    expect(marked(highlightSegments("Total 52.00 USD", { amounts: ["52.00"] }))).toEqual(["amount:52.00"]);
  });

  it("does not mark the amount inside a longer number", () => {
    for (const text of ["Ref 1520", "Cuenta 0102-5200", "Monto 1.052,00", "Monto 52,75", "Saldo 1234.567"]) {
      expect(marked(highlightSegments(text, { amounts: ["52", "1234.56"] })), text).toEqual([]);
    }
  });

  it("builds no pattern for what is not a decimal", () => {
    expect(amountPattern("")).toBeNull();
    expect(amountPattern("12a")).toBeNull();
    expect(amountPattern("1234.56")).not.toBeNull();
  });
});

describe("finding the reference", () => {
  it("ignores case, spaces and dashes", () => {
    const text = "Banesco\nNro. de Referencia: 0123 4567-89ab\nFecha 27/11/2026";
    expect(marked(highlightSegments(text, { references: ["012345678-9AB"] }))).toEqual(["reference:0123 4567-89ab"]);
  });

  it("finds a reference typed as the end of the printed one", () => {
    expect(marked(highlightSegments("Ref: 000123456789", { references: ["6789"] }))).toEqual(["reference:6789"]);
  });

  it("builds no pattern for a reference without letters or digits", () => {
    expect(referencePattern(" - / ")).toBeNull();
    expect(highlightSegments("Ref: ---", { references: ["--"] })).toEqual([{ text: "Ref: ---", mark: null }]);
  });
});

describe("cutting the text", () => {
  it("keeps every character, marks both, and lets the first (then the longer) of two overlapping win", () => {
    const text = "Pago Móvil\nMonto: Bs. 1.234,56\nReferencia: 0012345678\nRef 12345678";
    const segments = highlightSegments(text, { amounts: ["1234.56"], references: ["0012345678", "12345678"] });
    expect(joined(segments)).toBe(text);
    expect(marked(segments)).toEqual(["amount:1.234,56", "reference:0012345678", "reference:12345678"]);
  });

  it("answers the text as one plain piece when nothing is sought or found", () => {
    expect(highlightSegments("Hola", {})).toEqual([{ text: "Hola", mark: null }]);
    expect(highlightSegments("", { amounts: ["1"] })).toEqual([{ text: "", mark: null }]);
  });

  it("marks every place a value appears", () => {
    expect(marked(highlightSegments("10,00 + 10.00", { amounts: ["10.00"] }))).toEqual(["amount:10,00", "amount:10.00"]);
  });
});

describe("what the signals say", () => {
  const signals: ProofSignal[] = [
    { kind: "amountDiffers", read: { value: "90.00", currency: "VES" }, expected: { value: "100.00", currency: "VES" } },
    { kind: "referenceDiffers", read: "5555", given: "1111" },
    { kind: "referenceMatches", reference: "0099" },
    { kind: "exactReuse", other: 7 },
  ];

  it("seeks the amounts and references the signals read, and the one the buyer typed", () => {
    expect(highlightsOf(signals, " 1111 ")).toEqual({ amounts: ["90.00"], references: ["5555", "0099", "1111"] });
    expect(highlightsOf([{ kind: "amountMatches", read: { value: "5" } }], null)).toEqual({ amounts: ["5"], references: [] });
  });

  it("weighs each signal as the server does", () => {
    expect(signalLight({ kind: "exactReuse" })).toBe("red");
    expect(signalLight({ kind: "amountDiffers" })).toBe("red");
    expect(signalLight({ kind: "editedWith" })).toBe("red");
    expect(signalLight({ kind: "referenceDiffers" })).toBe("amber");
    expect(signalLight({ kind: "noTextReader" })).toBe("amber");
    expect(signalLight({ kind: "datedAfterPurchase" })).toBe("amber");
    expect(signalLight({ kind: "amountMatches" })).toBe("green");
    expect(signalLight({ kind: "referenceRead" })).toBe("green");
  });

  it("knows only the three lights", () => {
    expect(lightOf({ light: "red" })).toBe("red");
    expect(lightOf({ light: "purple" })).toBeNull();
    expect(lightOf({ light: null })).toBeNull();
    expect(lightOf(undefined)).toBeNull();
  });
});

describe("an amount read, written in the panel's language", () => {
  it("keeps the decimals it was printed with", () => {
    expect(formatReadAmount("1234.56", "VES", "es")).toBe("Bs\u00a01.234,56");
    expect(formatReadAmount("1234.56", "VES", "en")).toBe("Bs\u00a01,234.56");
    expect(formatReadAmount("120000", "COP", "es")).toBe("COP\u00a0120.000");
    expect(formatReadAmount("52", "USD", "en")).toBe("US$\u00a052");
    expect(formatReadAmount("1234.5", null, "es")).toBe("1.234,5");
    expect(formatReadAmount("n/a", "USD", "es")).toBe("n/a USD");
  });
});
