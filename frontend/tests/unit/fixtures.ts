// Shapes of the API for component tests: complete objects (the generated types require every
// field), with the fields a test cares about given as overrides.
import type { AdminPurchase, BuyerPurchaseView, Raffle } from "@/lib/api/types";

/** A raffle on sale: 999 numbers, 1–20 a purchase, sales open until the draw. */
export function raffleFixture(overrides: Partial<Raffle> = {}): Raffle {
  const drawDate = overrides.drawDate === undefined ? "2026-12-24T23:59:59.999Z" : overrides.drawDate;
  return {
    id: 1,
    title: "Moto",
    description: "Una moto",
    image: "/images/raffle-default.jpg",
    price: "5.00",
    status: "available",
    active: true,
    maxTickets: 999,
    ticketsSold: 0,
    ticketsAvailable: 999,
    minTicketsPerPurchase: 1,
    maxTicketsPerPurchase: 20,
    purchaseLimits: { min: 1, max: 20 },
    drawDate,
    endDate: null,
    createdAt: "2026-11-01T00:00:00.000Z",
    holdMinutes: 30,
    salesCloseHoursBeforeDraw: 0,
    salesCloseAt: drawDate,
    salesOpen: true,
    serverTime: "2026-11-20T12:00:00.000Z",
    ...overrides,
  };
}

/** A pending purchase as the admin panel lists it. */
export function adminPurchaseFixture(overrides: Partial<AdminPurchase> = {}): AdminPurchase {
  return {
    id: 41,
    reference: "RF-7K3M9Q2X",
    raffleId: 1,
    raffleTitle: "Moto",
    ticketNumbers: [7, 8],
    customerName: "Ana Pérez",
    customerId: "V1234567",
    customerEmail: "ana@example.com",
    customerPhone: "04141234567",
    customerCountry: "venezuela",
    paymentMethod: "Zelle",
    paymentMethodId: 1,
    totalAmount: "10.00",
    discountApplied: "0.00",
    status: "pending",
    createdAt: "2026-11-20T11:50:00.000Z",
    holdExpiresAt: null,
    adminNotes: null,
    convertedTotal: null,
    decidedAt: null,
    paymentProof: null,
    proofProblem: null,
    ...overrides,
  };
}

type BuyerOverrides = {
  purchase?: Partial<BuyerPurchaseView["purchase"]>;
  raffle?: Partial<BuyerPurchaseView["raffle"]>;
  history?: BuyerPurchaseView["history"];
  serverTime?: string;
};

/** The buyer's view of a pending purchase without a proof, 20 minutes left on its hold. */
export function buyerViewFixture(overrides: BuyerOverrides = {}): BuyerPurchaseView {
  return {
    purchase: {
      id: 12,
      reference: "RF-7K3M9Q2X",
      status: "pending",
      ticketNumbers: [7, 42],
      ticketLabels: ["0007", "0042"],
      totalAmount: "10.00",
      discountApplied: "0.00",
      convertedTotal: null,
      paymentMethod: "Zelle",
      customerName: "Ana Pérez",
      customerEmail: "ana@example.com",
      createdAt: "2026-11-20T11:50:00.000Z",
      holdExpiresAt: "2026-11-20T12:20:00.000Z",
      proofAttached: false,
      proofProblem: null,
      adminNotes: null,
      canUploadProof: true,
      ...overrides.purchase,
    },
    raffle: {
      id: 1,
      title: "Moto 0 km",
      image: "/images/raffle-default.jpg",
      drawDate: "2026-12-24T23:59:59.999Z",
      maxTickets: 999,
      ...overrides.raffle,
    },
    history: overrides.history ?? [{ kind: "received", at: "2026-11-20T11:50:00.000Z", note: null }],
    serverTime: overrides.serverTime ?? "2026-11-20T12:00:00.000Z",
  };
}
