/**
 * The API's shapes under the site's names. Generated (schema.gen.ts, from the OpenAPI snapshot
 * openapi.json: `npm run api:types`), never written by hand. Money and rates are decimal strings.
 */
import type { components, paths } from "./schema.gen";

type Schemas = components["schemas"];

export type Raffle = Schemas["RaffleDto"];
export type PurchaseLimits = Schemas["PurchaseLimitsDto"];
export type Promotion = Schemas["PromotionDto"];
export type LinkedRate = Schemas["LinkedRateDto"];
/** The document types `details` as a bare object; the API sends strings (PaymentMethodDto's doc). */
export type PaymentMethod = Omit<Schemas["PaymentMethodDto"], "details"> & { details: Record<string, string> };
export type Branding = Schemas["BrandingDto"];
export type PriceQuote = Schemas["PriceQuoteDto"];
export type ConvertedTotal = Schemas["ConvertedTotalDto"];
export type ReceiptPurchase = Schemas["ReceiptPurchaseDto"];
export type PurchaseResponse = Schemas["PurchaseResponse"];
export type UploadTarget = Schemas["UploadUrlResponse"];
export type VerifiedEntry = Schemas["VerifiedEntryDto"];
export type Verification = Schemas["VerificationDto"];
/** The one error shape of the API. */
export type ApiErrorBody = Schemas["ErrorBody"];
export type AuthUser = Schemas["SessionUserDto"];
export type LoginResponse = Schemas["LoginResponse"];
export type AdminPurchase = Schemas["PurchaseDto"];
export type PurchaseSummary = Schemas["PurchaseSummaryDto"];
export type PurchasePage = Schemas["PurchasePageDto"];
export type DashboardStats = Schemas["StatsDto"];
/** One day of GET /api/admin/stats/daily: approved revenue and tickets, real purchases made. */
export type DaySales = Schemas["DaySalesDto"];
export type ExchangeRate = Schemas["ExchangeRateDto"];
export type EmailSettings = Schemas["EmailSettingsDto"];
export type TestEmailResult = Schemas["TestEmailResponse"];
export type OutboxMail = Schemas["MailDto"];
/**
 * GET /api/purchases/{id}/buyer: what the buyer's own page shows. Named by its path and fields,
 * not by the schemas' names (the API names them after its DTO types, which may change).
 */
export type BuyerPurchaseView = paths["/api/purchases/{id}/buyer"]["get"]["responses"][200]["content"]["application/json"];
export type BuyerPurchase = BuyerPurchaseView["purchase"];
export type BuyerRaffle = BuyerPurchaseView["raffle"];
export type PurchaseEvent = BuyerPurchaseView["history"][number];
/** POST /api/raffles/{id}/release-alerts's answer (named by its path: the schema's name is the API's). */
export type ReleaseAlertResult = paths["/api/raffles/{id}/release-alerts"]["post"]["responses"][201]["content"]["application/json"];
