import { describe, expect, it, vi } from "vitest";
import { anchorOf, clampPage, pageRange, pageWindow } from "@/lib/admin/pagination";
import { colorsWithDefaults, DEFAULT_BRANDING_COLORS, hexToHsl, hslToHex, normalizeHsl, swatchColor } from "@/lib/admin/hsl";
import { canRemoveField, detailsFor, detailsText, draftFromDetails, emptyDraft, formTypeOf, isKnownDetailKey } from "@/lib/admin/payment-details";
import { proofFileName, proofKind, uploadsFallback } from "@/lib/admin/proof";
import { connectLive, liveUrl } from "@/lib/admin/live";
import { endOfDayUtc, dayOfUtc, formatDay, lastDays, monthGrid, msUntilNextDay, parseDay } from "@/lib/admin/dates";
import { mailEnvLines, smtpSecurityFor } from "@/lib/admin/env-vars";
import { throttleTrailing } from "@/lib/admin/refresh";
import { isChartKey, isPurchaseViewKey } from "@/lib/swr/cache";
import { isAdminUser } from "@/lib/admin/role";
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
  it("brings a page past the end back to the last page", () => {
    // Approving the last rows of page 3 leaves 2 pages: show page 2, not 'Página 3 de 2'.
    expect(clampPage(3, 2)).toBe(2);
    expect(clampPage(2, 2)).toBe(2);
    expect(clampPage(4, 0)).toBe(1);
    expect(clampPage(0, 5)).toBe(1);
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
  it("turns a hex colour into the spec's HSL form, which the API stores (issue 31)", () => {
    expect(normalizeHsl("#7c3aed")).toBe("262.1 83.3% 57.8%");
    expect(normalizeHsl(" #7C3AED ")).toBe("262.1 83.3% 57.8%");
    expect(normalizeHsl("#abc")).toBe("210 25% 73.3%");
    expect(hexToHsl("#ef4444")).toBe("0 84.2% 60.2%");
    expect(hexToHsl("#ffffff")).toBe("0 0% 100%");
    // A hue that rounds to 360 is written 0, which the API accepts either way.
    expect(hexToHsl("#ff0001")).toMatch(/^(0|359\.\d) 100% 50%$/);
    expect(hexToHsl("7c3aed")).toBeNull();
  });
  it("gives the colour picker the hex of a typed colour, the same hex back", () => {
    for (const hex of ["#7c3aed", "#16a34a", "#f4f4f5", "#000000", "#fe0001"]) expect(hslToHex(hexToHsl(hex) as string)).toBe(hex);
    expect(hslToHex("240 9% 3.9%")).toBe("#09090b");
    expect(hslToHex("hsl(0, 100%, 50%)")).toBe("#ff0000");
    expect(hslToHex("blue")).toBeNull();
  });
  it("refuses anything else (nothing but HSL reaches the style tag)", () => {
    for (const bad of ["", "red", "#ff00", "#ggg", "#7c3aed80", "400 10% 10%", "10 120% 10%", "1 2% 3% 4%", "1 2%; } body { x", "hsl(1 2%)"]) {
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
  it("keeps a bank or crypto method's other keys when it is edited", () => {
    const stored = { bankName: "Banesco", accountNumber: "0134", accountType: "ahorro", email: "pagos@x.com", titular: "Rifa C.A." };
    const draft = draftFromDetails("bank", stored);
    expect(draft.extra).toEqual([
      { key: "email", value: "pagos@x.com" },
      { key: "titular", value: "Rifa C.A." },
    ]);
    draft.bank.accountNumber = "0999";
    expect(detailsFor("bank", draft)).toEqual({ ...stored, accountNumber: "0999" });
    const crypto = draftFromDetails("crypto", { walletAddress: "T1", network: "tron", memo: "42" });
    expect(detailsFor("crypto", crypto)).toEqual({ walletAddress: "T1", network: "tron", memo: "42" });
    // A form's own keys always win over a stale extra of the same name.
    expect(draftFromDetails("crypto", { walletAddress: "T1" }).extra).toEqual([]);
  });
  it("knows the detail keys it names in the panel's language", () => {
    expect(["bankName", "accountNumber", "walletAddress", "network", "email"].every(isKnownDetailKey)).toBe(true);
    expect(isKnownDetailKey("titular")).toBe(false);
  });
  it("shows details as one line", () => {
    expect(detailsText({ bankName: "B", accountType: "ahorro" }, (k) => k.toUpperCase())).toBe("BANKNAME: B · ACCOUNTTYPE: ahorro");
    expect(detailsText({ accountType: "ahorro" }, (k) => k, (_, v) => v.toUpperCase())).toBe("accountType: AHORRO");
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
  it("knows when the next local day starts", () => {
    expect(msUntilNextDay(new Date(2026, 0, 2, 23, 59, 0))).toBe(60_000);
    expect(msUntilNextDay(new Date(2026, 0, 2, 23, 59, 59, 900))).toBe(1000);
  });
  it("writes and reads days in the panel's language", () => {
    expect(formatDay("2025-07-26", "es")).toBe("26/07/2025");
    expect(formatDay("2025-07-26", "en")).toBe("07/26/2025");
    expect(formatDay("", "es")).toBe("");
    expect(parseDay("26/07/2025", "es")).toBe("2025-07-26");
    expect(parseDay("7/26/2025", "en")).toBe("2025-07-26");
    expect(parseDay("26-7-25", "es")).toBe("2025-07-26");
    expect(parseDay("07/26/2025", "es")).toBeNull();
    expect(parseDay("30/02/2025", "es")).toBeNull();
    expect(parseDay("hoy", "es")).toBeNull();
  });
  it("reads a typed or pasted ISO day in both languages, and the language's own order", () => {
    expect(parseDay("2026-12-20", "es")).toBe("2026-12-20");
    expect(parseDay("2026-12-20", "en")).toBe("2026-12-20");
    expect(parseDay(" 2026/12/20 ", "es")).toBe("2026-12-20");
    expect(parseDay("20/12/2026", "es")).toBe("2026-12-20");
    expect(parseDay("12/20/2026", "en")).toBe("2026-12-20");
  });
  it("refuses a day it cannot read instead of guessing one", () => {
    expect(parseDay("2026-13-20", "es")).toBeNull();
    expect(parseDay("2026-02-30", "en")).toBeNull();
    expect(parseDay("20/12/202", "es")).toBeNull();
    expect(parseDay("20/12/20266", "es")).toBeNull();
    expect(parseDay("12/20/2026", "es")).toBeNull();
  });
  it("lays out a month from Monday in Spanish and from Sunday in English", () => {
    // 1 July 2025 was a Tuesday.
    const es = monthGrid(2025, 6, "es");
    expect(es[0]![0]).toEqual({ day: "2025-06-30", inMonth: false });
    expect(es[0]![1]).toEqual({ day: "2025-07-01", inMonth: true });
    const en = monthGrid(2025, 6, "en");
    expect(en[0]![0]!.day).toBe("2025-06-29");
    expect(en.flat().filter((d) => d.inMonth)).toHaveLength(31);
    expect(en.every((week) => week.length === 7)).toBe(true);
  });
});

describe("purchase search query", () => {
  it("leaves empty filters out and cleans ticket numbers", () => {
    expect(purchaseSearchQuery({ status: "all", name: "  " }, 1, 10)).toBe("page=1&pageSize=10");
    const q = new URLSearchParams(purchaseSearchQuery({ raffleId: 3, name: " ana ", status: "pending", tickets: "0007, 25 ;x, 130", date: "2026-11-23", utcOffsetMinutes: -240 }, 2, 10));
    expect(Object.fromEntries(q)).toEqual({ raffleId: "3", name: "ana", status: "pending", tickets: "7,25,130", date: "2026-11-23", utcOffsetMinutes: "-240", page: "2", pageSize: "10" });
  });
  it("names the page it moves from, so the server seeks a deep page from there", () => {
    const loaded = { page: 50_000, items: [{ id: 812 }, { id: 790 }] };
    const anchor = anchorOf(50_000, loaded);
    expect(anchor).toEqual({ firstId: 812, page: 50_000 });
    expect(Object.fromEntries(new URLSearchParams(purchaseSearchQuery({}, 50_001, 10, anchor)))).toEqual({ page: "50001", pageSize: "10", anchorId: "812", anchorPage: "50000" });
    // A page still loading (the data on screen is another page's), or empty, anchors nothing.
    expect(anchorOf(50_001, loaded)).toBeNull();
    expect(anchorOf(3, { page: 3, items: [] })).toBeNull();
    expect(anchorOf(1, undefined)).toBeNull();
  });
});

describe("raffle form", () => {
  const m = { required: "req", priceMin: "min", priceStep: "step", maxTicketsRange: "range", limitMin: "limit", limitsOrder: "order", holdMinutesRange: "hold", closeHoursRange: "close" };
  const draft: RaffleDraft = {
    title: " Moto ",
    description: " Una moto ",
    price: "13",
    maxTickets: "9999",
    minTicketsPerPurchase: "",
    maxTicketsPerPurchase: "5",
    drawDate: "2026-12-24",
    status: "available",
    image: "",
    holdMinutes: "30",
    salesCloseHoursBeforeDraw: "0",
  };
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
  it("holds numbers 1 to 10,080 minutes and closes sales 0 to 720 hours before the draw, as the API does", () => {
    expect(raffleInput({ ...draft, holdMinutes: " 45 ", salesCloseHoursBeforeDraw: "12" }, null)).toMatchObject({ holdMinutes: 45, salesCloseHoursBeforeDraw: 12 });
    for (const ok of ["1", "10080"]) expect(validateRaffle({ ...draft, holdMinutes: ok }, m).holdMinutes).toBeUndefined();
    for (const bad of ["0", "10081", "", "1.5", "-3"]) expect(validateRaffle({ ...draft, holdMinutes: bad }, m).holdMinutes).toBe("hold");
    for (const ok of ["0", "720"]) expect(validateRaffle({ ...draft, salesCloseHoursBeforeDraw: ok }, m).salesCloseHoursBeforeDraw).toBeUndefined();
    for (const bad of ["721", "", "x"]) expect(validateRaffle({ ...draft, salesCloseHoursBeforeDraw: bad }, m).salesCloseHoursBeforeDraw).toBe("close");
  });
});

describe("e-mail environment lines", () => {
  it("never writes the password itself", () => {
    const lines = mailEnvLines({ emailHost: "smtp.x", emailPort: 465, emailUser: "u", fromEmail: "f@x", hasPassword: true });
    expect(lines).toContain("RIFA_SMTP_PASSWORD=<app password>");
    expect(lines).toContain("RIFA_SMTP_PORT=465");
  });
  it("names the connection security the API picks for the port", () => {
    expect(mailEnvLines({ emailHost: "smtp.x", emailPort: 465, emailUser: "", fromEmail: "", hasPassword: false })).toContain("RIFA_SMTP_SECURITY=tls");
    expect(mailEnvLines({ emailHost: "smtp.x", emailPort: "587", emailUser: "", fromEmail: "", hasPassword: false })).toContain("RIFA_SMTP_SECURITY=starttls");
    expect(smtpSecurityFor(25)).toBe("starttls");
  });
});

describe("what an event refreshes", () => {
  it("refreshes lists, purchases and figures but not the chart", () => {
    expect(isPurchaseViewKey("/api/admin/purchases/search?page=1&pageSize=10")).toBe(true);
    expect(isPurchaseViewKey(["/api/admin/purchases", 7])).toBe(true);
    expect(isPurchaseViewKey("/api/admin/stats")).toBe(true);
    expect(isPurchaseViewKey("/api/admin/stats?date=2026-01-02&utcOffsetMinutes=0")).toBe(true);
    expect(isPurchaseViewKey("/api/admin/stats/daily?from=2026-01-01&to=2026-01-14&utcOffsetMinutes=0")).toBe(false);
    expect(isChartKey("/api/admin/stats/daily?from=2026-01-01&to=2026-01-14&utcOffsetMinutes=0")).toBe(true);
    expect(isChartKey("/api/admin/stats")).toBe(false);
    expect(isPurchaseViewKey("/api/admin/raffles")).toBe(false);
  });
  it("runs a throttled refresh once per burst", () => {
    const timers: (() => void)[] = [];
    const fn = vi.fn();
    const throttled = throttleTrailing(fn, 60_000, (f) => timers.push(f));
    throttled();
    throttled();
    throttled();
    expect(timers).toHaveLength(1);
    timers[0]!();
    expect(fn).toHaveBeenCalledTimes(1);
    throttled();
    expect(timers).toHaveLength(2);
  });
});

describe("panel access", () => {
  it("lets only role admin in", () => {
    expect(isAdminUser({ role: "admin" })).toBe(true);
    expect(isAdminUser({ role: "visitor" })).toBe(false);
    expect(isAdminUser({ role: "" })).toBe(false);
    expect(isAdminUser(null)).toBe(false);
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

  it("reports each authentication after the first, to fetch what was missed", () => {
    FakeSocket.all = [];
    const timers: (() => void)[] = [];
    const auths: boolean[] = [];
    connectLive({
      url: "ws://site/ws",
      token: () => "tok",
      onPurchase: () => undefined,
      onAuthenticated: (again) => auths.push(again),
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
      setTimer: (fn) => timers.push(fn),
      clearTimer: () => undefined,
    });
    FakeSocket.all[0]!.onmessage?.({ data: '{"type":"authenticated"}' });
    FakeSocket.all[0]!.onclose?.({ code: 1006, reason: "" });
    timers.at(-1)!();
    FakeSocket.all[1]!.onmessage?.({ data: '{"type":"authenticated"}' });
    expect(auths).toEqual([false, true]);
  });
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
  it("keeps reconnecting every 3 s while the server is down (SPEC §9)", () => {
    const { timers } = setup();
    for (let i = 0; i < 4; i++) {
      FakeSocket.all.at(-1)!.onclose?.({ code: 1006, reason: "" });
      timers.at(-1)!.fn();
    }
    expect(timers.map((t) => t.ms)).toEqual([3000, 3000, 3000, 3000]);
    expect(FakeSocket.all).toHaveLength(5);
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
  it("reports nothing once stopped, so the next connection's state stands", () => {
    const { states, stop } = setup();
    const ws = FakeSocket.all[0]!;
    ws.onmessage?.({ data: '{"type":"authenticated"}' });
    stop();
    ws.onmessage?.({ data: '{"type":"authenticated"}' });
    ws.onclose?.({ code: 1008, reason: "session ended" });
    expect(states).toEqual(["connecting", "live"]);
  });
  it("uses wss on https pages", () => {
    expect(liveUrl({ protocol: "https:", host: "rifa.example" })).toBe("wss://rifa.example/ws");
    expect(liveUrl({ protocol: "http:", host: "127.0.0.1:3000" })).toBe("ws://127.0.0.1:3000/ws");
  });
});
