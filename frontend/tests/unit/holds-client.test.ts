// The API calls issue 14 added: the availability's hold headers, the buyer's view read with the
// key in a header, the release alert, the invoice links and the admin's reopen.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fetchAvailability, fetchBuyerPurchase, invoiceUrl, subscribeReleaseAlert } from "@/lib/api/client";
import { reopenPurchase } from "@/lib/api/admin";
import { ApiError } from "@/lib/api/fetcher";

type Call = { url: string; init: RequestInit };
let calls: Call[] = [];
let answers: Response[] = [];

beforeEach(() => {
  calls = [];
  answers = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answers.shift() ?? new Response("{}", { status: 200 });
    }),
  );
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const headers = (i = 0) => (calls[i]?.init.headers ?? {}) as Record<string, string>;
const bitmap = (headers: Record<string, string>) => new Response(new Uint8Array([0, 0]), { status: 200, headers });

describe("availability with holds", () => {
  it("reads how many numbers are held and when the first hold can end", async () => {
    answers.push(bitmap({ "X-Max-Tickets": "16", "X-Available-Count": "0", "X-Pending-Count": "7", "X-Next-Release-At": "2026-11-20T12:30:00Z" }));
    const availability = await fetchAvailability(3);
    expect(calls[0]?.url).toBe("/api/raffles/3/availability");
    expect(availability).toMatchObject({ maxTickets: 16, availableCount: 0, pendingCount: 7, nextReleaseAt: "2026-11-20T12:30:00Z" });
  });

  it("says nothing is held when the headers are absent or unreadable", async () => {
    answers.push(bitmap({ "X-Max-Tickets": "16", "X-Available-Count": "0" }));
    answers.push(bitmap({ "X-Max-Tickets": "16", "X-Available-Count": "0", "X-Pending-Count": "many", "X-Next-Release-At": "soon" }));
    expect(await fetchAvailability(3)).toMatchObject({ pendingCount: 0, nextReleaseAt: null });
    expect(await fetchAvailability(3)).toMatchObject({ pendingCount: 0, nextReleaseAt: null });
  });
});

describe("the buyer's view", () => {
  it("sends the key in X-Purchase-Token, never in the URL", async () => {
    answers.push(new Response('{"purchase":{"id":12}}', { status: 200 }));
    const view = await fetchBuyerPurchase(12, "s3cr3t-key");
    expect(calls[0]?.url).toBe("/api/purchases/12/buyer");
    expect(calls[0]?.url).not.toContain("s3cr3t");
    expect(headers()["X-Purchase-Token"]).toBe("s3cr3t-key");
    expect(view.purchase.id).toBe(12);
  });

  it("fails with the API's code on a wrong key", async () => {
    answers.push(new Response('{"code":"purchase_not_found","message":"Compra no encontrada"}', { status: 404 }));
    const error = await fetchBuyerPurchase(12, "wrong").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("purchase_not_found");
  });

  it("links the PDF receipt and the printable invoice with the key", () => {
    expect(invoiceUrl(12, "k y", "pdf")).toBe("/api/purchases/12/invoice?token=k+y&format=pdf");
    expect(invoiceUrl(12, "k", "html")).toBe("/api/purchases/12/invoice?token=k&format=html");
  });
});

describe("release alerts", () => {
  it("posts the trimmed e-mail as JSON", async () => {
    answers.push(new Response('{"subscribed":true}', { status: 201 }));
    const result = await subscribeReleaseAlert(5, "  ana@example.com ");
    expect(calls[0]?.url).toBe("/api/raffles/5/release-alerts");
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.body).toBe('{"email":"ana@example.com"}');
    expect(result.subscribed).toBe(true);
  });
});

describe("reopening an expired purchase", () => {
  it("posts to the purchase's reopen and keeps the server's refusal", async () => {
    localStorage.setItem("auth_token", "t");
    answers.push(new Response('{"code":"numbers_no_longer_free","message":"Los números 0007 ya no están libres","numbers":[7]}', { status: 409 }));
    const error = (await reopenPurchase(9).catch((e: unknown) => e)) as ApiError;
    expect(calls[0]?.url).toBe("/api/admin/purchases/9/reopen");
    expect(calls[0]?.init.method).toBe("POST");
    expect(headers().Authorization).toBe("Bearer t");
    expect(error.code).toBe("numbers_no_longer_free");
    expect(error.body?.numbers).toEqual([7]);
  });
});
