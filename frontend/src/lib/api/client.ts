import { ApiError, apiJson, apiRequest } from "./fetcher";
import type { BuyerPurchaseView, PriceQuote, PurchaseResponse, ReleaseAlertResult, UploadTarget, Verification } from "./types";

/** The picker's compact availability: one bit per number, most significant bit first. */
export interface Availability {
  bitmap: Uint8Array;
  maxTickets: number;
  availableCount: number;
  /** Numbers held by pending purchases (`X-Pending-Count`; 0 when the API does not say). */
  pendingCount: number;
  /** The earliest moment a hold can expire (`X-Next-Release-At`), or null when none can. */
  nextReleaseAt: string | null;
}

export async function fetchAvailability(raffleId: number, admin = false): Promise<Availability> {
  const base = admin ? "/api/admin/raffles" : "/api/raffles";
  const response = await apiRequest(`${base}/${raffleId}/availability`);
  const bitmap = new Uint8Array(await response.arrayBuffer());
  const maxTickets = Number(response.headers.get("X-Max-Tickets") ?? bitmap.length * 8);
  const counted = response.headers.get("X-Available-Count");
  const pending = Number(response.headers.get("X-Pending-Count") ?? 0);
  const release = response.headers.get("X-Next-Release-At");
  return {
    bitmap,
    maxTickets,
    availableCount: counted === null ? Number.NaN : Number(counted),
    pendingCount: Number.isFinite(pending) && pending > 0 ? pending : 0,
    nextReleaseAt: release && !Number.isNaN(Date.parse(release)) ? release : null,
  };
}

/** Asks for an e-mail when held numbers of the raffle come back on sale. */
export function subscribeReleaseAlert(raffleId: number, email: string): Promise<ReleaseAlertResult> {
  return apiJson<ReleaseAlertResult>(`/api/raffles/${raffleId}/release-alerts`, { method: "POST", body: { email: email.trim() } });
}

/**
 * The buyer's own view of a purchase. The key travels in a header, never in the URL: it came
 * from the page's fragment, which no server (nor any log or Referer) ever sees.
 */
export function fetchBuyerPurchase(purchaseId: number, purchaseToken: string): Promise<BuyerPurchaseView> {
  return apiJson<BuyerPurchaseView>(`/api/purchases/${purchaseId}/buyer`, { headers: { "X-Purchase-Token": purchaseToken } });
}

export function fetchQuote(raffleId: number, count: number): Promise<PriceQuote> {
  return apiJson<PriceQuote>(`/api/raffles/${raffleId}/quote?count=${count}`);
}

/**
 * What a purchase buys: the numbers the buyer picked, or how many the server draws among those
 * still free when it writes the purchase (quick buy: nobody can take them in between).
 */
export type TicketChoice = { numbers: number[] } | { randomCount: number };

/** How many numbers a choice buys. */
export function ticketCount(tickets: TicketChoice): number {
  return "randomCount" in tickets ? tickets.randomCount : tickets.numbers.length;
}

export interface PurchaseFields {
  customerName: string;
  customerId: string;
  customerEmail: string;
  customerPhone: string;
  customerCountry: string;
  /** The method's id. */
  paymentMethod: string;
  /** The bank's reference of the payment, as typed; sent only when not blank. */
  paymentReference?: string;
  tickets: TicketChoice;
  /** The server's quoted total, a decimal string sent back untouched. */
  totalAmount: string;
  discountApplied: string;
  acceptTerms: boolean;
}

/** Builds the spec's multipart purchase body: `ticketNumbers` or `randomCount`, never both. */
export function purchaseFormData(raffleId: number, fields: PurchaseFields): FormData {
  const form = new FormData();
  form.set("customerName", fields.customerName);
  form.set("customerId", fields.customerId);
  form.set("customerEmail", fields.customerEmail);
  form.set("customerPhone", fields.customerPhone);
  form.set("customerCountry", fields.customerCountry);
  form.set("paymentMethod", fields.paymentMethod);
  const reference = fields.paymentReference?.trim();
  if (reference) form.set("paymentReference", reference);
  form.set("raffleId", String(raffleId));
  if ("randomCount" in fields.tickets) form.set("randomCount", String(fields.tickets.randomCount));
  else form.set("ticketNumbers", JSON.stringify(fields.tickets.numbers));
  form.set("totalAmount", fields.totalAmount);
  form.set("discountApplied", fields.discountApplied);
  form.set("acceptTerms", String(fields.acceptTerms));
  return form;
}

/** Creates the purchase; an admin's goes to the test-purchase call (nothing is processed). */
export function createPurchase(
  raffleId: number,
  fields: PurchaseFields,
  asAdmin: boolean,
): Promise<PurchaseResponse> {
  const url = asAdmin ? `/api/admin/raffles/${raffleId}/purchase` : `/api/raffles/${raffleId}/purchase`;
  return apiJson<PurchaseResponse>(url, { method: "POST", body: purchaseFormData(raffleId, fields) });
}

export interface ProofContext {
  purchaseId: number;
  purchaseToken: string;
}

/** Step 1 of the proof: ask where to put the file. */
export function requestUpload(file: File, ctx: ProofContext): Promise<UploadTarget> {
  return apiJson<UploadTarget>("/api/objects/upload", {
    method: "POST",
    body: {
      filename: file.name,
      contentType: file.type,
      size: file.size,
      purchaseId: ctx.purchaseId,
      purchaseToken: ctx.purchaseToken,
    },
  });
}

/**
 * Step 2: send the file to the upload URL with exactly the headers the API named. The URL may
 * be relative (same origin), or an absolute storage URL that must not see our token or cookies.
 */
export async function uploadFile(target: UploadTarget, file: File): Promise<void> {
  const headers = target.uploadHeaders ?? { "Content-Type": file.type };
  const sameOrigin =
    typeof window === "undefined" || new URL(target.uploadURL, window.location.href).origin === window.location.origin;
  const response = await fetch(target.uploadURL, {
    method: "PUT",
    headers,
    body: file,
    credentials: sameOrigin ? "include" : "omit",
  });
  if (!response.ok) {
    // The API's own upload answers carry a message for the buyer; a storage's do not.
    const text = await response.text().catch(() => "");
    throw new ApiError(response.status, response.statusText, text);
  }
}

/** Step 3: attach the uploaded file to the purchase. */
export function attachProof(uploadURL: string, ctx: ProofContext): Promise<unknown> {
  return apiJson(`/api/purchases/${ctx.purchaseId}/payment-proof`, {
    method: "PUT",
    body: { paymentProofURL: uploadURL, purchaseToken: ctx.purchaseToken },
  });
}

/** Request → upload → attach. Throws the first failure (the caller logs it and goes on). */
export async function uploadProof(file: File, ctx: ProofContext): Promise<void> {
  const target = await requestUpload(file, ctx);
  await uploadFile(target, file);
  await attachProof(target.uploadURL, ctx);
}

/** The printable invoice of a purchase (HTML, the default), or its PDF. */
export function invoiceUrl(purchaseId: number, purchaseToken: string, format?: "pdf" | "html"): string {
  const query = new URLSearchParams({ token: purchaseToken });
  if (format) query.set("format", format);
  return `/api/purchases/${purchaseId}/invoice?${query.toString()}`;
}

export type LookupType = "email" | "phone";

/** Ticket lookup: e-mail lower-cased and trimmed, phone trimmed (SPEC §5). */
export function verifyTickets(type: LookupType, value: string): Promise<Verification> {
  const body = type === "email" ? { email: value.trim().toLowerCase() } : { phone: value.trim() };
  return apiJson<Verification>("/api/verify-tickets", { method: "POST", body });
}
