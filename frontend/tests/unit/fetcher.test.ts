import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiJson, errorMessage, keyToUrl, swrConfig, swrFetcherNullOn401 } from "@/lib/api/fetcher";
import { attachProof, createPurchase, invoiceUrl, requestUpload, uploadFile, uploadProof, verifyTickets } from "@/lib/api/client";

type Call = { url: string; init: RequestInit };
let calls: Call[] = [];
let answers: Response[] = [];

beforeEach(() => {
  calls = [];
  answers = [];
  vi.stubGlobal("fetch", vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answers.shift() ?? new Response("{}", { status: 200 });
  }));
  localStorage.clear();
  document.documentElement.lang = "en";
});
afterEach(() => vi.unstubAllGlobals());

const headers = (i = 0) => (calls[i]?.init.headers ?? {}) as Record<string, string>;

describe("fetcher", () => {
  it("fails with 'status: body'", async () => {
    answers.push(new Response('{"code":"raffle_not_found","message":"Raffle not found"}', { status: 404, statusText: "Not Found" }));
    const error = await apiJson("/api/raffles/9").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('404: {"code":"raffle_not_found","message":"Raffle not found"}');
    expect((error as ApiError).code).toBe("raffle_not_found");
    expect(errorMessage(error, "fallback")).toBe("Raffle not found");
  });

  it("uses the status text when the body is empty", async () => {
    answers.push(new Response("", { status: 502, statusText: "Bad Gateway" }));
    const error = (await apiJson("/api/x").catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe("502: Bad Gateway");
    expect(errorMessage(error, "fallback")).toBe("fallback");
  });

  it("sends the stored token, credentials and the UI language", async () => {
    localStorage.setItem("auth_token", "abc");
    await apiJson("/api/admin/raffles");
    expect(headers().Authorization).toBe("Bearer abc");
    expect(headers()["Accept-Language"]).toBe("en");
    expect(calls[0]?.init.credentials).toBe("include");
  });

  it("sends JSON only with a payload", async () => {
    await apiJson("/api/raffles");
    expect(headers()["Content-Type"]).toBeUndefined();
    expect(calls[0]?.init.body).toBeUndefined();
    expect(calls[0]?.init.method).toBe("GET");
    await apiJson("/api/verify-tickets", { body: { email: "a@b.co" } });
    expect(headers(1)["Content-Type"]).toBe("application/json");
    expect(calls[1]?.init.body).toBe('{"email":"a@b.co"}');
    expect(calls[1]?.init.method).toBe("POST");
  });

  it("joins key parts with a slash and can answer null on 401", async () => {
    expect(keyToUrl(["/api/admin/raffles", 3])).toBe("/api/admin/raffles/3");
    answers.push(new Response('{"code":"unauthorized"}', { status: 401 }));
    expect(await swrFetcherNullOn401(["/api/admin/me"])).toBeNull();
  });

  it("never retries or refetches on focus", () => {
    expect(swrConfig).toMatchObject({ shouldRetryOnError: false, revalidateOnFocus: false, revalidateIfStale: false });
  });
});

describe("purchase and proof client", () => {
  const fields = {
    customerName: "Ana Pérez",
    customerId: "V12345678",
    customerEmail: "ana@example.com",
    customerPhone: "04121234567",
    customerCountry: "venezuela",
    paymentMethod: "2",
    tickets: { numbers: [7, 42] },
    totalAmount: "26.00",
    discountApplied: "0.00",
    acceptTerms: true,
  };

  it("posts the spec's multipart fields, to the admin call for admins", async () => {
    await createPurchase(5, fields, false);
    const body = calls[0]?.init.body as FormData;
    expect(calls[0]?.url).toBe("/api/raffles/5/purchase");
    expect(body).toBeInstanceOf(FormData);
    expect(body.get("ticketNumbers")).toBe("[7,42]");
    expect(body.get("totalAmount")).toBe("26.00");
    expect(body.get("raffleId")).toBe("5");
    expect(headers()["Content-Type"]).toBeUndefined();
    await createPurchase(5, fields, true);
    expect(calls[1]?.url).toBe("/api/admin/raffles/5/purchase");
  });

  it("keeps the taken numbers of a 409", async () => {
    answers.push(new Response('{"code":"tickets_taken","message":"Taken","numbers":[42]}', { status: 409 }));
    const error = (await createPurchase(5, fields, false).catch((e: unknown) => e)) as ApiError;
    expect(error.body?.numbers).toEqual([42]);
  });

  it("requests an upload, PUTs the file with exactly the given headers, then attaches it", async () => {
    const file = new File(["%PDF-1.4"], "pago.pdf", { type: "application/pdf" });
    answers.push(new Response('{"uploadURL":"https://s3.example/bucket/key?sig=1","uploadHeaders":{"Content-Type":"application/pdf","x-amz-meta-purchase":"9"}}'));
    answers.push(new Response("", { status: 200 }));
    answers.push(new Response('{"ok":true}'));
    await uploadProof(file, { purchaseId: 9, purchaseToken: "secret" });

    expect(calls[0]?.url).toBe("/api/objects/upload");
    expect(JSON.parse(calls[0]?.init.body as string)).toEqual({
      filename: "pago.pdf",
      contentType: "application/pdf",
      size: 8,
      purchaseId: 9,
      purchaseToken: "secret",
    });
    expect(calls[1]?.url).toBe("https://s3.example/bucket/key?sig=1");
    expect(calls[1]?.init.method).toBe("PUT");
    expect(calls[1]?.init.headers).toEqual({ "Content-Type": "application/pdf", "x-amz-meta-purchase": "9" });
    expect(calls[1]?.init.credentials).toBe("omit");
    expect(calls[2]?.url).toBe("/api/purchases/9/payment-proof");
    expect(calls[2]?.init.method).toBe("PUT");
    expect(JSON.parse(calls[2]?.init.body as string)).toEqual({ paymentProofURL: "https://s3.example/bucket/key?sig=1", purchaseToken: "secret" });
  });

  it("sends same-origin uploads with credentials", async () => {
    const file = new File(["x"], "a.png", { type: "image/png" });
    await uploadFile({ uploadURL: "/api/objects/put/abc", uploadHeaders: { "Content-Type": "image/png" } }, file);
    expect(calls[0]?.init.credentials).toBe("include");
  });

  it("stops at the first failing proof step", async () => {
    answers.push(new Response('{"code":"not_found","message":"x"}', { status: 404 }));
    const file = new File(["x"], "a.png", { type: "image/png" });
    await expect(requestUpload(file, { purchaseId: 1, purchaseToken: "t" })).rejects.toThrow(/^404: /);
    answers.push(new Response('{"code":"validation_failed","message":"Archivo muy grande"}', { status: 422 }));
    await expect(attachProof("/u", { purchaseId: 1, purchaseToken: "t" })).rejects.toMatchObject({ status: 422 });
  });

  it("builds the invoice URL with the purchase token", () => {
    expect(invoiceUrl(9, "a b")).toBe("/api/purchases/9/invoice?token=a+b");
    expect(invoiceUrl(9, "t", "pdf")).toBe("/api/purchases/9/invoice?token=t&format=pdf");
  });

  it("lower-cases and trims a lookup e-mail, trims a phone", async () => {
    await verifyTickets("email", "  Ana@Example.COM ");
    await verifyTickets("phone", " 0412 123 4567 ");
    expect(JSON.parse(calls[0]?.init.body as string)).toEqual({ email: "ana@example.com" });
    expect(JSON.parse(calls[1]?.init.body as string)).toEqual({ phone: "0412 123 4567" });
  });
});
