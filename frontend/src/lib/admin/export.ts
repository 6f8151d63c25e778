import { purchaseFilterParams, type PurchaseFilters } from "@/lib/api/admin";
import { apiRequest } from "@/lib/api/fetcher";
import { saveFile } from "./csv";

const QUOTE = 0x22;
const LINE_FEED = 0x0a;

/**
 * Counts the CSV records that end in `chunk`, carrying whether a quoted cell is still open from
 * the chunk before (a line break inside quotes, as in an admin's note, ends no record).
 */
export function countRecords(chunk: Uint8Array, quoted: boolean): { records: number; quoted: boolean } {
  let records = 0;
  for (const byte of chunk) {
    if (byte === QUOTE) quoted = !quoted;
    else if (byte === LINE_FEED && !quoted) records++;
  }
  return { records, quoted };
}

/**
 * Downloads every purchase matching the filters as CSV: one request the server streams as it
 * reads (a year of purchases included), the file kept by the browser until it is saved. Reports
 * the purchases received so far against `total` (the search's count); returns how many came.
 */
export async function exportPurchasesCsv(filters: PurchaseFilters, total: number, onProgress: (done: number, total: number) => void): Promise<number> {
  const query = purchaseFilterParams(filters).toString();
  const response = await apiRequest(query ? `/api/admin/purchases/export?${query}` : "/api/admin/purchases/export");
  const chunks: Uint8Array[] = [];
  let lines = 0;
  let quoted = false;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      const counted = countRecords(value, quoted);
      lines += counted.records;
      quoted = counted.quoted;
      onProgress(Math.max(0, lines - 1), Math.max(total, lines - 1));
    }
  }
  const purchases = Math.max(0, lines - 1);

  saveFile(new Blob(chunks as BlobPart[], { type: "text/csv;charset=utf-8" }), `compras-${new Date().toISOString().slice(0, 10)}.csv`);
  return purchases;
}
