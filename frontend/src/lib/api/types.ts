/** Shapes of the API's answers (see /api/openapi.json). Money and rates are decimal strings. */

export type RaffleStatus = "available" | "finished" | "postponed" | "inactive" | "completed";

export interface PurchaseLimits {
  min: number;
  max: number;
}

export interface Raffle {
  id: number;
  title: string;
  description: string;
  image: string;
  price: string;
  status: RaffleStatus | (string & {});
  active: boolean;
  maxTickets: number;
  ticketsSold: number;
  ticketsAvailable: number;
  minTicketsPerPurchase: number | null;
  maxTicketsPerPurchase: number | null;
  purchaseLimits: PurchaseLimits;
  drawDate: string | null;
  endDate: string | null;
  createdAt: string;
}

export interface Promotion {
  id: number;
  description: string;
}

export interface LinkedRate {
  id: number;
  fromCurrency: string;
  toCurrency: string;
  rate: string;
}

export interface PaymentMethod {
  id: number;
  name: string;
  type: string;
  active: boolean;
  details: Record<string, string>;
  exchangeRateId: number | null;
  exchangeRate: LinkedRate | null;
}

export interface Branding {
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
  dangerColor: string;
  successColor: string;
  companyName: string;
  description: string;
  logoUrl: string;
  /** Site details the operator sets (footer, support buttons, how-to-win); a blank link is hidden. */
  contactEmail: string;
  contactPhone: string;
  whatsappUrl: string;
  facebookUrl: string;
  instagramUrl: string;
  tiktokUrl: string;
  whatsappChannelUrl: string;
  lotteryResultsUrl: string;
  /** The how-to videos of steps 1 and 2. */
  videoUrls: [string, string];
  /** Static marketing figures (SPEC §1): counts shown as "N+", prizes as typed. */
  participants: number;
  prizes: string;
  countries: number;
  rafflesPagePrizes: string;
  rafflesPageParticipants: number;
  rafflesPageWinners: number;
}

export interface PriceQuote {
  ticketCount: number;
  basePrice: string;
  subtotal: string;
  discount: string;
  discountPercentage: string;
  total: string;
  appliedDiscount: { label: string; percentage: string } | null;
  meetsMinimum: boolean;
}

export interface ConvertedTotal {
  currency: string;
  rate: string;
  amount: string;
}

export interface ReceiptPurchase {
  id: number;
  reference: string;
  raffleId: number;
  raffleTitle: string;
  ticketNumbers: number[];
  ticketLabels: string[];
  customerName: string;
  customerEmail: string;
  paymentMethod: string;
  totalAmount: string;
  discountApplied: string;
  convertedTotal: ConvertedTotal | null;
  status: string;
  createdAt: string;
}

export interface PurchaseResponse {
  purchase: ReceiptPurchase;
  testMode: boolean;
  ticketNumbers: number[];
  totalAmount: string;
  quote: PriceQuote;
  /** Secret that lets this buyer attach a proof and open the invoice (proof-upload contract). */
  purchaseToken?: string;
}

export interface UploadTarget {
  uploadURL: string;
  uploadHeaders?: Record<string, string>;
}

export interface VerifiedEntry {
  raffle: {
    id: number;
    title: string;
    description: string;
    price: string;
    drawDate: string | null;
    maxTickets: number;
  };
  tickets: number[];
  purchase: {
    reference: string;
    totalAmount: string;
    paymentMethod: string;
    status: string;
    createdAt: string;
  };
}

export interface Verification {
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  raffles: VerifiedEntry[];
}

/** The one error shape of the API. */
export interface ApiErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string>;
  numbers?: number[];
  expectedTotal?: string;
  retryAfterSeconds?: number;
  highestHeld?: number;
}

export interface AuthUser {
  id: number;
  username: string;
  role: string;
  authenticated: boolean;
  privileged: boolean;
}

/* ---- Admin panel ---- */

export interface LoginResponse {
  token: string;
  expiresAt: string;
  user: AuthUser;
}

export type PurchaseStatus = "pending" | "approved" | "rejected" | "test";

export interface AdminPurchase {
  id: number;
  reference: string;
  raffleId: number;
  raffleTitle: string;
  ticketNumbers: number[];
  customerName: string;
  customerId: string;
  customerEmail: string;
  customerPhone: string;
  customerCountry: string;
  paymentMethod: string;
  paymentMethodId: number | null;
  totalAmount: string;
  discountApplied: string;
  convertedTotal: ConvertedTotal | null;
  status: PurchaseStatus | (string & {});
  createdAt: string;
  decidedAt: string | null;
  /** Short-lived link: `/api/proofs/…` (also `/uploads/…`) or an absolute object-store URL. */
  paymentProof: string | null;
  adminNotes: string | null;
  /** Single-purchase view only: why the buyer's last proof was refused, until a good one is attached. */
  proofProblem?: "missing" | "too_large" | "wrong_type" | (string & {});
}

export interface PurchaseSummary {
  ticketsSold: number;
  totalRevenue: string;
  pendingPurchases: number;
}

export interface PurchasePage {
  items: AdminPurchase[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  summary: PurchaseSummary;
}

export interface DashboardStats {
  ticketsSold: number;
  totalRevenue: string;
  pendingPurchases: number;
  activeRaffles: number;
}

/** One day of GET /api/admin/stats/daily: approved revenue and tickets, real purchases made. */
export interface DaySales {
  date: string;
  revenue: string;
  ticketsSold: number;
  purchases: number;
}

export interface ExchangeRate {
  id: number;
  fromCurrency: string;
  toCurrency: string;
  rate: string;
  updatedAt: string;
}

export interface EmailSettings {
  emailHost: string;
  emailPort: number;
  emailUser: string;
  hasPassword: boolean;
  fromEmail: string;
  /** The saved sender is missing or at a placeholder domain (localhost, example.com…): the server's rule. */
  senderIsPlaceholder: boolean;
}

export interface TestEmailResult {
  deliveredVia: "smtp" | "outbox" | (string & {});
  to: string;
}

export interface OutboxMail {
  id: number;
  purchaseId: number;
  kind: "received" | "approved" | "rejected" | (string & {});
  recipient: string;
  status: "pending" | "sent" | "failed" | "withheld" | (string & {});
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  /** Why a `withheld` message was not sent: the recipient's hourly or daily cap. */
  withheldReason: "hourly_cap" | "daily_cap" | (string & {}) | null;
  createdAt: string;
  sentAt: string | null;
}
