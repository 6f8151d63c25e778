/**
 * The API's shapes under the site's names. Generated (schema.gen.ts, from the OpenAPI snapshot
 * openapi.json: `npm run api:types`), never written by hand. Money and rates are decimal strings.
 */
import type { components, paths } from "./schema.gen";

type Schemas = components["schemas"];

export type Raffle = Schemas["RaffleDto"];
/** A raffle as saved: `keptUnpublished` when it was asked to be on sale without a prize. */
export type SavedRaffle = Schemas["SavedRaffleDto"];
/** Where an uploaded photo is served. */
export type UploadedPhoto = Schemas["UploadedPhoto"];
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
/** The signed-in admin: `staffRole` and its `permissions` (none until a handed-over password is replaced). */
export type AuthUser = Schemas["SessionUserDto"];
/** The sign-in's answer, and the password change's (a new token: the account's other sessions end). */
export type LoginResponse = Schemas["LoginResponse"];
/** GET /api/admin/staff: one account of the team, with its role, state and last sign-in. */
export type StaffMember = Schemas["StaffMemberDto"];
/** An account and the password generated for it, shown once (a new account, a reset). */
export type HandedOver = Schemas["HandedOverDto"];
export type AdminPurchase = Schemas["PurchaseDto"];
/** GET /api/admin/purchases/{id}/proof-check: what the check of the purchase's proof found. */
export type ProofCheck = Schemas["ProofCheckDto"];
/** One thing the check found, tagged by `kind` (the panel words it). */
export type ProofSignal = Schemas["SignalDto"];
/** An amount read on a proof: a decimal string and, when a mark named it, its currency. */
export type ReadAmount = Schemas["ReadAmountDto"];
/** GET /api/admin/proof-queue: pending purchases with a proof, each with its check's light and signals. */
export type ProofQueue = Schemas["ProofQueueDto"];
export type QueuedProof = Schemas["QueuedProofDto"];
/** POST /api/admin/purchases/bulk-decision's answer: what happened to each id, and how many were decided. */
export type BulkDecision = Schemas["BulkDecisionDto"];
export type BulkResult = Schemas["BulkResultDto"];
export type PurchaseSummary = Schemas["PurchaseSummaryDto"];
export type PurchasePage = Schemas["PurchasePageDto"];
export type DashboardStats = Schemas["StatsDto"];
/** One day of GET /api/admin/stats/daily: approved revenue and tickets, real purchases made. */
export type DaySales = Schemas["DaySalesDto"];
export type ExchangeRate = Schemas["ExchangeRateDto"];
export type EmailSettings = Schemas["EmailSettingsDto"];
export type TestEmailResult = Schemas["TestEmailResponse"];
export type OutboxMail = Schemas["MailDto"];
/** GET /api/admin/audit: a page of the trail, newest first; `nextBefore` is the `before` of the next (older) page. */
export type AuditPage = Schemas["AuditPageDto"];
/** One entry: who (`actor`; for a failed sign-in, the name tried), when, from where, what, on what, and what changed. */
export type AuditEntry = Schemas["AuditEntryDto"];
export type AuditChange = Schemas["AuditChangeDto"];
/** GET /api/admin/audit/verification: whether the hash chain holds and, when not, the `problem` and where (`atSeq`). */
export type AuditVerification = Schemas["AuditVerificationDto"];
/** GET /api/admin/audit/figures: one person's purchase decisions over the days asked (`perDay` lists only days with some). */
export type PersonFigures = Schemas["PersonFiguresDto"];
export type DayDecisions = Schemas["DayDecisionsDto"];
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

// The verifiable draw (decision 0020). Hex strings are lower case; `drawDate` and `publishedOn`
// are YYYY-MM-DD, the other moments RFC 3339.
/** Where a prize's winning number comes from: a lottery's draw, or a drand quicknet round fixed in advance. */
export type PrizeSource = Schemas["PrizeSourceDto"];
/** The public result a prize was drawn from; a beacon's `randomness` is SHA-256 of its `signature`. */
export type PrizeResult = Schemas["PrizeResultDto"];
/** One step of the published rule, as the server applied it and the verifier recomputes it. */
export type DrawStep = Schemas["DrawStepDto"];
/** What one source of a prize's chain gave (0 the prize's own source, 1 its fallback drand round), and when it was recorded. */
export type RecordedResult = Schemas["RecordedResultDto"];
/** The frozen ledger's Merkle root and size, published before any result is known. */
export type Commitment = Schemas["CommitmentDto"];
/** GET /api/raffles/{id}/draw: the prizes, the rule's inputs and, once frozen, the commitment. */
export type PublicDraw = Schemas["PublicDrawDto"];
export type PublicDrawPrize = Schemas["PublicPrizeDto"];
/**
 * GET /api/raffles/{id}/draw/ledger: the file the verification page and `rifa-api verify-draw`
 * check. The document types `entries` as arrays of anything; the API sends `[number, tag hex]`
 * pairs sorted by number (PublishedDrawDto's doc). The verifier still checks each pair's shape.
 */
export type PublishedLedger = Omit<Schemas["PublishedDrawDto"], "entries"> & { entries: Array<[number, string]> };
/** One of GET /api/winners (newest first); `maxTickets` sets how its number is written. */
export type PublicWinner = Schemas["WinnerDto"];
export type Winners = Schemas["WinnersDto"];
/** GET /api/admin/raffles/{id}/draw, and the answer of every write of the draw. */
export type AdminDrawView = Schemas["AdminDrawDto"];
export type AdminPrize = Schemas["AdminPrizeDto"];
/** The prize and source of its chain the draw waits for (AdminDrawDto `awaiting`). */
export type DrawAwaiting = Schemas["AwaitingDto"];
export type AdminPrizeDraw = Schemas["AdminPrizeDrawDto"];
/** The winner as the panel sees them: the public name plus the purchase's contact. */
export type AdminDrawWinner = Schemas["AdminWinnerDto"];
/** The winner's window to claim the prize; `daysLeft` counts a started day, negative once past. */
export type AdminPrizeClaim = Schemas["ClaimDto"];
/** A purchase still waiting for a decision: while one exists the ledger cannot be frozen. */
export type DrawPendingPurchase = Schemas["PendingPurchaseDto"];
/** One prize of PUT /api/admin/raffles/{id}/prizes; its place in the list is its position. */
export type PrizeInput = Schemas["PrizeRequest"];
/** POST …/prizes/{prizeId}/result: a lottery's result, or a beacon's signature (null: the server fetches the round). */
export type PrizeResultInput = Schemas["ResultRequest"];
/** POST …/prizes/{prizeId}/result/preview: a lottery's published result, to see what it would decide. */
export type LotteryResultInput = Schemas["LotteryResultRequest"];
/** What one prize would become: a winner (as the public would see them), no winner, or waiting for `source` of its chain (1 is its drand round). */
export type PreviewOutcome = Schemas["PreviewOutcomeDto"];
/** One prize a result would settle, or leave waiting. */
export type PreviewedPrize = Schemas["PreviewedPrizeDto"];
/** What recording a lottery result would decide, in the prizes' order; nothing is stored. */
export type ResultPreview = Schemas["ResultPreviewDto"];
