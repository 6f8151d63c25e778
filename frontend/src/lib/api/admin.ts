import type { StaffRole } from "@/lib/admin/permissions";
import { clearSession, saveSession } from "@/lib/auth/session";
import { ApiError, apiJson as baseJson, storedToken, type RequestOptions } from "./fetcher";
import type {
  AdminDrawView,
  AdminPurchase,
  AuthUser,
  Branding,
  BulkDecision,
  EmailSettings,
  ExchangeRate,
  HandedOver,
  LoginResponse,
  LotteryResultInput,
  OutboxMail,
  PaymentMethod,
  PrizeInput,
  PrizeResultInput,
  ResultPreview,
  SavedRaffle,
  UploadedPhoto,
  StaffMember,
  TestEmailResult,
} from "./types";

/** The admin panel's writes (reads go through the SWR hooks in lib/swr/use-admin.ts). */

/**
 * An admin call; a 401 means the token no longer works, so the stored session is dropped, and a
 * refusal by role means the stored user is out of date (see `refreshIfOutdated`).
 */
async function apiJson<T>(url: string, options?: RequestOptions): Promise<T> {
  try {
    return await baseJson<T>(url, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && !url.endsWith("/api/admin/login")) clearSession();
    refreshIfOutdated(error);
    throw error;
  }
}

/**
 * 403s saying the stored user no longer matches the account: an owner changed its role (or took
 * its owner's rights), or it must choose its own password first.
 */
const OUTDATED_USER = new Set(["forbidden", "not_an_owner", "password_change_required"]);

let refreshing: Promise<void> | null = null;

/**
 * Reads the signed-in admin again (GET /api/admin/me) and stores it with the same token, so the
 * panel shows what the account may do now. One read at a time, however many calls were refused.
 */
export function refreshSessionUser(): Promise<void> {
  refreshing ??= (async () => {
    const token = storedToken();
    if (!token) return;
    const user = await apiJson<AuthUser>("/api/admin/me");
    // Signed out or signed in again meanwhile: that session's user is not this one.
    if (storedToken() === token) saveSession({ token, user });
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** After a refused call: reads the user again when the refusal says it is out of date. */
export function refreshIfOutdated(error: unknown): void {
  if (error instanceof ApiError && error.status === 403 && OUTDATED_USER.has(error.code ?? "")) {
    refreshSessionUser().catch(() => undefined);
  }
}

export function login(username: string, password: string): Promise<LoginResponse> {
  return apiJson<LoginResponse>("/api/admin/login", { method: "POST", body: { username, password } });
}

/** Ends this session on the server: its token stops working at once (its live connection closes). */
export function endSession(): Promise<void> {
  return apiJson<void>("/api/admin/logout", { method: "POST", keepalive: true });
}

/** Ends every session of the signed-in admin's account, on every device, this one included. */
export function endEverySession(): Promise<void> {
  return apiJson<void>("/api/admin/logout-everywhere", { method: "POST" });
}

/**
 * Replaces the signed-in admin's own password. Every session of the account ends; the answer
 * carries this page's new token. 422 on `currentPassword` or `newPassword`; 429 after too many
 * wrong current passwords.
 */
export function changePassword(currentPassword: string, newPassword: string): Promise<LoginResponse> {
  return apiJson<LoginResponse>("/api/admin/password", { method: "POST", body: { currentPassword, newPassword } });
}

// The team (owners only). Each change is in the audit trail.

/** A new account with a generated password to hand over. 409 `username_taken`; 422 on `username` or `role`. */
export function createStaff(username: string, role: StaffRole): Promise<HandedOver> {
  return apiJson<HandedOver>("/api/admin/staff", { method: "POST", body: { username: username.trim(), role } });
}

/** A new role, or disabled (every session of the account ends at once) or enabled again. 409 `own_account`. */
export function updateStaff(id: number, change: { role: StaffRole } | { disabled: boolean }): Promise<StaffMember> {
  return apiJson<StaffMember>(`/api/admin/staff/${id}`, { method: "PATCH", body: change });
}

/** A new generated password to hand over; every session of the account ends. 409 `own_account`. */
export function resetStaffPassword(id: number): Promise<HandedOver> {
  return apiJson<HandedOver>(`/api/admin/staff/${id}/password-reset`, { method: "POST" });
}

export interface PurchaseFilters {
  raffleId?: number | null;
  name?: string;
  status?: string;
  tickets?: string;
  date?: string;
  utcOffsetMinutes?: number;
}

/** The filters as query parameters (of the search and of the export); empty ones are left out. */
export function purchaseFilterParams(filters: PurchaseFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (filters.raffleId) q.set("raffleId", String(filters.raffleId));
  if (filters.name?.trim()) q.set("name", filters.name.trim());
  if (filters.status && filters.status !== "all") q.set("status", filters.status);
  const tickets = (filters.tickets ?? "")
    .split(/[\s,;]+/)
    .map((t) => t.trim())
    .filter((t) => /^\d+$/.test(t))
    .map((t) => String(Number(t)));
  if (tickets.length) q.set("tickets", tickets.join(","));
  if (filters.date) {
    q.set("date", filters.date);
    q.set("utcOffsetMinutes", String(filters.utcOffsetMinutes ?? 0));
  }
  return q;
}

/** A page the panel showed, by its first purchase: the server reads the pages near it from there. */
export interface PageAnchor {
  firstId: number;
  page: number;
}

/** The query string of the paginated purchase search. */
export function purchaseSearchQuery(filters: PurchaseFilters, page: number, pageSize: number, anchor?: PageAnchor | null): string {
  const q = purchaseFilterParams(filters);
  q.set("page", String(page));
  q.set("pageSize", String(pageSize));
  if (anchor) {
    q.set("anchorId", String(anchor.firstId));
    q.set("anchorPage", String(anchor.page));
  }
  return q.toString();
}

export function decidePurchase(id: number, status: "approved" | "rejected", adminNotes: string): Promise<AdminPurchase> {
  const notes = adminNotes.trim();
  return apiJson<AdminPurchase>(`/api/admin/purchases/${id}/status`, {
    method: "PUT",
    body: { status, adminNotes: notes || null },
  });
}

/**
 * One decision for many purchases (1 to 100 ids): the server approves only the green ones, or
 * rejects only the red ones with the one note (required to reject); the others come back
 * `notEligible` (or `notPending`). Every buyer decided gets their e-mail.
 */
export function bulkDecide(ids: number[], status: "approved" | "rejected", adminNotes: string): Promise<BulkDecision> {
  const notes = adminNotes.trim();
  return apiJson<BulkDecision>("/api/admin/purchases/bulk-decision", {
    method: "POST",
    body: { ids, status, adminNotes: notes || null },
  });
}

/**
 * Reopens an expired purchase: pending again with a fresh deadline. 409 `numbers_no_longer_free`
 * names the numbers taken meanwhile; 422 on `ticketNumbers` when the buyer's allowance is used.
 */
export function reopenPurchase(id: number): Promise<AdminPurchase> {
  return apiJson<AdminPurchase>(`/api/admin/purchases/${id}/reopen`, { method: "POST" });
}

export interface RaffleInput {
  title: string;
  description: string;
  price: number;
  maxTickets: number;
  maxTicketsPerPurchase: number | null;
  minTicketsPerPurchase: number | null;
  drawDate: string;
  endDate: string;
  status: string;
  image: string;
  /** How long a purchase without a proof holds its numbers (1–10,080 minutes). */
  holdMinutes: number;
  /** Sales close this many hours before the draw (0–720). */
  salesCloseHoursBeforeDraw: number;
}

/**
 * Creates a raffle with its prizes (the form's first prize), or replaces an existing one's
 * fields. A raffle asked to be on sale without a prize is saved inactive, and the answer's
 * `keptUnpublished` says why.
 */
export function saveRaffle(input: RaffleInput, target: { id: number } | { prizes: PrizeInput[] }): Promise<SavedRaffle> {
  return "id" in target
    ? apiJson<SavedRaffle>(`/api/admin/raffles/${target.id}`, { method: "PUT", body: input })
    : apiJson<SavedRaffle>("/api/admin/raffles", { method: "POST", body: { ...input, prizes: target.prizes } });
}

export function deleteRaffle(id: number): Promise<void> {
  return apiJson<void>(`/api/admin/raffles/${id}`, { method: "DELETE" });
}

export interface PaymentMethodInput {
  name: string;
  type: string;
  details: Record<string, string>;
  exchangeRateId: number | null;
  active: boolean;
  /** Whether buyers must type the payment's reference with this method. */
  referenceRequired: boolean;
  /** The fewest letters and digits the reference may have, 0 to 30 (0: any). */
  referenceMinLength: number;
}

export function savePaymentMethod(input: PaymentMethodInput, id?: number): Promise<PaymentMethod> {
  return apiJson<PaymentMethod>(id ? `/api/admin/payment-methods/${id}` : "/api/admin/payment-methods", {
    method: id ? "PUT" : "POST",
    body: input,
  });
}

export function deletePaymentMethod(id: number): Promise<void> {
  return apiJson<void>(`/api/admin/payment-methods/${id}`, { method: "DELETE" });
}

export interface RateInput {
  fromCurrency: string;
  toCurrency: string;
  rate: number;
}

export function saveRate(input: RateInput, id?: number): Promise<ExchangeRate> {
  return apiJson<ExchangeRate>(id ? `/api/admin/exchange-rates/${id}` : "/api/admin/exchange-rates", {
    method: id ? "PUT" : "POST",
    body: input,
  });
}

export function deleteRate(id: number): Promise<void> {
  return apiJson<void>(`/api/admin/exchange-rates/${id}`, { method: "DELETE" });
}

export function saveBranding(input: Branding): Promise<Branding> {
  return apiJson<Branding>("/api/admin/branding", { method: "POST", body: input });
}

export interface EmailSettingsInput {
  emailHost: string;
  emailPort: number;
  emailUser: string;
  /** Write-only: blank keeps the stored password… */
  emailPass: string;
  /** …unless this asks to delete it (a password typed with it is stored instead). */
  clearPassword?: boolean;
  fromEmail: string;
}

export function saveEmailSettings(input: EmailSettingsInput): Promise<EmailSettings> {
  const body: Partial<EmailSettingsInput> = { ...input };
  if (!input.emailPass) delete body.emailPass;
  if (!input.clearPassword) delete body.clearPassword;
  return apiJson<EmailSettings>("/api/admin/email-settings", { method: "PUT", body });
}

export function sendTestEmail(to?: string): Promise<TestEmailResult> {
  return apiJson<TestEmailResult>("/api/admin/email-settings/test", { method: "POST", body: to?.trim() ? { to: to.trim() } : {} });
}

export function retryMail(id: number): Promise<OutboxMail> {
  return apiJson<OutboxMail>(`/api/admin/mail-outbox/${id}/retry`, { method: "POST" });
}

// The verifiable draw (decision 0020). Each write answers the raffle's whole admin draw view.

/** Replaces the prizes, in order (first = position 1). 409 `draw_rules_locked` once a purchase exists. */
export function savePrizes(raffleId: number, prizes: PrizeInput[], rule?: string | null): Promise<AdminDrawView> {
  return apiJson<AdminDrawView>(`/api/admin/raffles/${raffleId}/prizes`, { method: "PUT", body: rule ? { prizes, rule } : { prizes } });
}

/** Freezes the ledger and publishes its root; every buyer is mailed their proof. Irreversible. */
export function freezeDraw(raffleId: number): Promise<AdminDrawView> {
  return apiJson<AdminDrawView>(`/api/admin/raffles/${raffleId}/draw/freeze`, { method: "POST" });
}

/** Records a prize's result; the server applies the rule and names the winner. */
export function recordPrizeResult(raffleId: number, prizeId: number, input: PrizeResultInput): Promise<AdminDrawView> {
  return apiJson<AdminDrawView>(`/api/admin/raffles/${raffleId}/prizes/${prizeId}/result`, { method: "POST", body: input });
}

/**
 * What recording a lottery prize's result would decide (each prize it settles, in order), storing
 * nothing: the panel asks for confirmation with it. Refused as recording would be (409, 422 on a field).
 */
export function previewPrizeResult(raffleId: number, prizeId: number, input: LotteryResultInput): Promise<ResultPreview> {
  return apiJson<ResultPreview>(`/api/admin/raffles/${raffleId}/prizes/${prizeId}/result/preview`, { method: "POST", body: input });
}

/** Marks a drawn prize as handed to its winner, with an optional photo URL of the delivery. */
export function markPrizeDelivered(raffleId: number, prizeId: number, photo: string | null): Promise<AdminDrawView> {
  return apiJson<AdminDrawView>(`/api/admin/raffles/${raffleId}/prizes/${prizeId}/delivered`, { method: "POST", body: { photo } });
}

/** Uploads a photo of a raffle, a prize or a delivery; the answer's url is where it is served. */
export function uploadPhoto(file: Blob): Promise<UploadedPhoto> {
  return apiJson<UploadedPhoto>("/api/admin/photos", { method: "POST", body: file });
}
