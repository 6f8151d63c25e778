import { describe, expect, it, vi } from "vitest";
import { pageRange, pageWindow } from "@/lib/admin/pagination";
import { colorsWithDefaults, DEFAULT_BRANDING_COLORS, normalizeHsl, swatchColor } from "@/lib/admin/hsl";
import { canRemoveField, detailsFor, detailsText, draftFromDetails, emptyDraft, formTypeOf } from "@/lib/admin/payment-details";
import { csvCell, toCsv } from "@/lib/admin/csv";
import { proofFileName, proofKind, uploadsFallback } from "@/lib/admin/proof";
import { connectLive, liveUrl, reconnectDelay } from "@/lib/admin/live";
import { endOfDayUtc, dayOfUtc, lastDays } from "@/lib/admin/dates";
import { mailEnvLines } from "@/lib/admin/env-vars";
import { purchaseSearchQuery } from "@/lib/api/admin";
import { raffleInput, validateRaffle, type RaffleDraft } from "@/lib/validations/raffle";

describe("pagination window (5 buttons centred)", () => {
  it("centres on the current page", () => {
    expect(pageWindow(10, 20)).toEqual([8, 9, 10, 11, 12]);
  });
  it("shifts at the ends", () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(19, 20)).toEqual([16, 17, 18, 19, 20]);
  });
  it("shows every page when there are fewer than 5", () => {
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
  it("clamps a page out of range", () => {
    expect(pageWindow(99, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(0, 10)).toEqual([1, 2, 3, 4, 5]);
  });
  it("gives the 'showing X-Y of N' range", () => {
    expect(pageRange(1, 10, 95)).toEqual({ from: 1, to: 10 });
    expect(pageRange(10, 10, 95)).toEqual({ from: 91, to: 95 });
    expect(pageRange(1, 10, 0)).toEqual({ from: 0, to: 0 });
    expect(pageRange(10_000, 10, 100_000)).toEqual({ from: 99_991, to: 100_000 });
  });
});

describe("HSL colours", () => {
  it("accepts the theme's form and common variants", () => {
    expect(normalizeHsl("240 9% 3.9%")).toBe("240 9% 3.9%");
    expect(normalizeHsl(" hsl(142, 76%, 36%) ")).toBe("142 76% 36%");
    expect(normalizeHsl("0,84.2%,60.2%")).toBe("0 84.2% 60.2%");
    expect(normalizeHsl("200deg 50 50")).toBe("200 50% 50%");
  });
  it("refuses anything else (nothing but HSL reaches the style tag)", () => {
    for (const bad of ["", "red", "#ff0000", "400 10% 10%", "10 120% 10%", "1 2% 3% 4%", "1 2%; } body { x", "hsl(1 2%)"]) {
      expect(normalizeHsl(bad), bad).toBeNull();
    }
  });
  it("gives a swatch colour or null", () => {
    expect(swatchColor("240 9% 3.9%")).toBe("hsl(240 9% 3.9%)");
    expect(swatchColor("blue")).toBeNull();
  });
  it("resets to stored values with the spec's defaults for missing or invalid ones", () => {
    expect(colorsWithDefaults(null)).toEqual(DEFAULT_BRANDING_COLORS);
    const c = colorsWithDefaults({ primaryColor: "10 50% 40%", dangerColor: "oops" });
    expect(c.primaryColor).toBe("10 50% 40%");
    expect(c.dangerColor).toBe("0 84.2% 60.2%");
    expect(c.successColor).toBe("142 76% 36%");
    expect(c.secondaryColor).toBe("240 4.8% 95.9%");
  });
});

describe("payment details per type", () => {
  it("digital: free key/value rows, blank keys dropped, values trimmed", () => {
    const draft = emptyDraft();
    draft.digital = [
      { key: "email", value: " pagos@x.com " },
      { key: " ", value: "lost" },
      { key: "phone", value: "0414" },
    ];
    expect(detailsFor("digital", draft)).toEqual({ email: "pagos@x.com", phone: "0414" });
  });
  it("digital rows can be removed only while more than one exists", () => {
    const draft = emptyDraft();
    expect(canRemoveField(draft)).toBe(false);
    draft.digital.push({ key: "", value: "" });
    expect(canRemoveField(draft)).toBe(true);
  });
  it("bank: bank name, account number and account type", () => {
    const draft = emptyDraft();
    draft.bank = { bankName: " Banesco ", accountNumber: "0134", accountType: "ahorro" };
    draft.digital = [{ key: "ignored", value: "x" }];
    expect(detailsFor("bank", draft)).toEqual({ bankName: "Banesco", accountNumber: "0134", accountType: "ahorro" });
  });
  it("crypto: wallet and network", () => {
    const draft = emptyDraft();
    draft.crypto = { walletAddress: " T123 ", network: "tron" };
    expect(detailsFor("crypto", draft)).toEqual({ walletAddress: "T123", network: "tron" });
  });
  it("reads stored details back into the form, other types as free fields", () => {
    expect(draftFromDetails("bank", { bankName: "B", accountNumber: "1", accountType: "weird" }).bank).toEqual({
      bankName: "B",
      accountNumber: "1",
      accountType: "corriente",
    });
    expect(draftFromDetails("crypto", { walletAddress: "W", network: "polygon" }).crypto).toEqual({ walletAddress: "W", network: "polygon" });
    expect(formTypeOf("mobile_payment")).toBe("digital");
    expect(draftFromDetails("zelle", { email: "z@x.com", titular: 7 }).digital).toEqual([
      { key: "email", value: "z@x.com" },
      { key: "titular", value: "7" },
    ]);
  });
  it("shows details as one line", () => {
    expect(detailsText({ bankName: "B", accountType: "ahorro" }, (k) => k.toUpperCase())).toBe("BANKNAME: B · ACCOUNTTYPE: ahorro");
  });
});

describe("CSV", () => {
  it("quotes cells with commas, quotes and line breaks", () => {
    expect(csvCell('Pérez, "Juan"')).toBe('"Pérez, ""Juan"""');
    expect(csvCell("a\nb")).toBe('"a\nb"');
    expect(csvCell(null)).toBe("");
  });
  it("defuses spreadsheet formulas but keeps negative numbers", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("+58 412")).toBe("'+58 412");
    expect(csvCell("-5.00")).toBe("-5.00");
  });
  it("writes a BOM, a header and CRLF rows", () => {
    expect(toCsv(["a", "b"], [[1, "x"]])).toBe("\uFEFFa,b\r\n1,x\r\n");
  });
});

describe("payment proof links", () => {
  const token = (sub: string) => `h.${btoa(JSON.stringify({ sub })).replace(/=+$/, "")}.s`;
  it("tells images from PDFs by the name, or the token's stored name", () => {
    expect(proofKind("https://bucket.s3/proofs/9/a.PDF?X-Amz=1")).toBe("pdf");
    expect(proofKind("/uploads/x.png")).toBe("image");
    expect(proofKind(`/api/proofs/${token("proofs/9/abc.pdf")}`)).toBe("pdf");
    expect(proofFileName(`/api/proofs/${token("proofs/9/abc.jpg")}`)).toBe("proofs/9/abc.jpg");
    expect(proofKind("/api/proofs/opaque")).toBe("unknown");
  });
  it("falls back to /uploads/{file}", () => {
    expect(uploadsFallback("/api/proofs/tok123")).toBe("/uploads/tok123");
    expect(uploadsFallback("proof.png")).toBe("/uploads/proof.png");
    expect(uploadsFallback("/uploads/tok123")).toBeNull();
  });
});

describe("dates", () => {
  it("sends the draw date as the end of that day in UTC", () => {
    expect(endOfDayUtc("2026-12-24")).toBe("2026-12-24T23:59:59.999Z");
    expect(dayOfUtc("2026-12-24T23:59:59.999Z")).toBe("2026-12-24");
    expect(dayOfUtc(null)).toBe("");
  });
  it("lists the last days oldest first", () => {
    const days = lastDays(3, new Date(2026, 0, 2));
    expect(days).toEqual(["2025-12-31", "2026-01-01", "2026-01-02"]);
  });
});

describe("purchase search query", () => {
  it("leaves empty filters out and cleans ticket numbers", () => {
    expect(purchaseSearchQuery({ status: "all", name: "  " }, 1, 10)).toBe("page=1&pageSize=10");
    const q = new URLSearchParams(purchaseSearchQuery({ raffleId: 3, name: " ana ", status: "pending", tickets: "0007, 25 ;x, 130", date: "2026-11-23", utcOffsetMinutes: -240 }, 2, 10));
    expect(Object.fromEntries(q)).toEqual({ raffleId: "3", name: "ana", status: "pending", tickets: "7,25,130", date: "2026-11-23", utcOffsetMinutes: "-240", page: "2", pageSize: "10" });
  });
});

describe("raffle form", () => {
  const m = { required: "req", priceMin: "min", priceStep: "step", maxTicketsRange: "range", limitMin: "limit", limitsOrder: "order" };
  const draft: RaffleDraft = { title: " Moto ", description: " Una moto ", price: "13", maxTickets: "9999", minTicketsPerPurchase: "", maxTicketsPerPurchase: "5", drawDate: "2026-12-24", status: "available", image: "" };
  it("accepts the defaults and sends trimmed text, null limits and the end of the day", () => {
    expect(validateRaffle(draft, m)).toEqual({});
    expect(raffleInput(draft, null)).toMatchObject({ title: "Moto", description: "Una moto", price: 13, maxTickets: 9999, minTicketsPerPurchase: null, maxTicketsPerPurchase: 5, drawDate: "2026-12-24T23:59:59.999Z", endDate: "2025-09-01T00:00:00.000Z" });
  });
  it("enforces the spec's limits", () => {
    expect(validateRaffle({ ...draft, title: "", drawDate: "" }, m)).toMatchObject({ title: "req", drawDate: "req" });
    expect(validateRaffle({ ...draft, price: "0" }, m).price).toBe("min");
    expect(validateRaffle({ ...draft, price: "1.234" }, m).price).toBe("step");
    expect(validateRaffle({ ...draft, maxTickets: "100000" }, m).maxTickets).toBe("range");
    expect(validateRaffle({ ...draft, minTicketsPerPurchase: "0" }, m).minTicketsPerPurchase).toBe("limit");
    expect(validateRaffle({ ...draft, minTicketsPerPurchase: "6" }, m).minTicketsPerPurchase).toBe("order");
  });
});

describe("e-mail environment lines", () => {
  it("never writes the password itself", () => {
    const lines = mailEnvLines({ emailHost: "smtp.x", emailPort: 465, emailUser: "u", fromEmail: "f@x", hasPassword: true });
    expect(lines).toContain("RIFA_SMTP_PASSWORD=<app password>");
    expect(lines).toContain("RIFA_SMTP_PORT=465");
  });
});

/** A scripted WebSocket for the live connection. */
class FakeSocket {
  static all: FakeSocket[] = [];
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.onclose?.({ code: 1000, reason: "" });
  }
}

describe("live connection", () => {
  function setup(token: string | null = "tok") {
    FakeSocket.all = [];
    const timers: { fn: () => void; ms: number }[] = [];
    const onPurchase = vi.fn();
    const onRefused = vi.fn();
    const states: string[] = [];
    const stop = connectLive({
      url: "ws://site/ws",
      token: () => token,
      onPurchase,
      onRefused,
      onState: (s) => states.push(s),
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
      setTimer: (fn, ms) => timers.push({ fn, ms }),
      clearTimer: () => undefined,
    });
    return { timers, onPurchase, onRefused, states, stop };
  }

  it("authenticates with admin_auth and passes new purchases on", () => {
    const { onPurchase, states } = setup();
    const ws = FakeSocket.all[0]!;
    ws.onopen?.();
    expect(JSON.parse(ws.sent[0]!)).toEqual({ type: "admin_auth", token: "tok" });
    ws.onmessage?.({ data: '{"type":"authenticated"}' });
    ws.onmessage?.({ data: '{"type":"new_purchase","data":{"customerName":"Ana","purchaseId":9}}' });
    ws.onmessage?.({ data: "not json" });
    expect(onPurchase).toHaveBeenCalledWith({ customerName: "Ana", purchaseId: 9 });
    expect(states).toEqual(["connecting", "live"]);
  });
  it("reconnects 3 s after a close", () => {
    const { timers } = setup();
    const ws = FakeSocket.all[0]!;
    ws.onopen?.();
    ws.onmessage?.({ data: '{"type":"authenticated"}' });
    ws.onclose?.({ code: 1006, reason: "" });
    expect(timers.at(-1)?.ms).toBe(3000);
    timers.at(-1)?.fn();
    expect(FakeSocket.all).toHaveLength(2);
  });
  it("backs off when connections keep failing before authentication", () => {
    const { timers } = setup();
    for (let i = 0; i < 4; i++) {
      FakeSocket.all.at(-1)!.onclose?.({ code: 1006, reason: "" });
      timers.at(-1)!.fn();
    }
    expect(timers.map((t) => t.ms)).toEqual([3000, 6000, 12000, 24000]);
    expect(reconnectDelay(20)).toBe(60_000);
  });
  it("stops and reports when the server refuses the token (1008)", () => {
    const { timers, onRefused } = setup();
    FakeSocket.all[0]!.onclose?.({ code: 1008, reason: "invalid token" });
    expect(onRefused).toHaveBeenCalledWith("invalid token");
    expect(timers).toHaveLength(0);
  });
  it("does not reconnect after stop, and opens nothing without a token", () => {
    const { timers, stop } = setup();
    stop();
    expect(timers).toHaveLength(0);
    setup(null);
    expect(FakeSocket.all).toHaveLength(0);
  });
  it("uses wss on https pages", () => {
    expect(liveUrl({ protocol: "https:", host: "rifa.example" })).toBe("wss://rifa.example/ws");
    expect(liveUrl({ protocol: "http:", host: "127.0.0.1:3000" })).toBe("ws://127.0.0.1:3000/ws");
  });
});
