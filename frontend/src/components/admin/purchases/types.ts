import type { AdminPurchase } from "@/lib/api/types";

export type Decision = { purchase: AdminPurchase; status: "approved" | "rejected" };

/** What a row or card offers: open the purchase, or decide it. */
export interface PurchaseHandlers {
  onView: (purchase: AdminPurchase) => void;
  onDecide: (decision: Decision) => void;
}
