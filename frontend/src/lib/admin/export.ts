import { purchaseSearchQuery, type PurchaseFilters } from "@/lib/api/admin";
import { apiJson } from "@/lib/api/fetcher";
import type { PurchasePage } from "@/lib/api/types";
import { padTicket } from "@/lib/format";
import { toCsv } from "./csv";

const EXPORT_PAGE = 100;

export const CSV_HEADER = [
  "id",
  "reference",
  "createdAt",
  "status",
  "raffleId",
  "raffleTitle",
  "ticketCount",
  "ticketNumbers",
  "totalAmount",
  "discountApplied",
  "paymentMethod",
  "customerName",
  "customerId",
  "customerEmail",
  "customerPhone",
  "customerCountry",
  "decidedAt",
  "adminNotes",
];

/**
 * Downloads every purchase matching the filters as CSV, reading the paginated search 100 at a
 * time (the API has no export call); returns how many rows were written. The pages after the
 * first are pinned to the highest id of the first (`maxId`): purchases arriving during the
 * export would otherwise push rows onto the next page, repeating them.
 */
export async function exportPurchasesCsv(
  filters: PurchaseFilters,
  widthOf: (raffleId: number) => number,
  onProgress: (done: number, total: number) => void,
): Promise<number> {
  const rows: unknown[][] = [];
  let page = 1;
  let totalPages = 1;
  let pinned: PurchaseFilters = filters;
  do {
    const data = await apiJson<PurchasePage>(`/api/admin/purchases/search?${purchaseSearchQuery(pinned, page, EXPORT_PAGE)}`);
    if (page === 1 && data.items.length > 0) pinned = { ...filters, maxId: Math.max(...data.items.map((p) => p.id)) };
    for (const p of data.items) {
      rows.push([
        p.id,
        p.reference,
        p.createdAt,
        p.status,
        p.raffleId,
        p.raffleTitle,
        p.ticketNumbers.length,
        p.ticketNumbers.map((n) => padTicket(n, widthOf(p.raffleId))).join(" "),
        p.totalAmount,
        p.discountApplied,
        p.paymentMethod,
        p.customerName,
        p.customerId,
        p.customerEmail,
        p.customerPhone,
        p.customerCountry,
        p.decidedAt ?? "",
        p.adminNotes ?? "",
      ]);
    }
    totalPages = data.totalPages;
    onProgress(rows.length, data.total);
    page += 1;
  } while (page <= totalPages);

  const blob = new Blob([toCsv(CSV_HEADER, rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `compras-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  return rows.length;
}
