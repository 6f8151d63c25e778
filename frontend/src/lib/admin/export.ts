import { purchaseFilterParams, type PurchaseFilters } from "@/lib/api/admin";
import { apiRequest } from "@/lib/api/fetcher";
import { auditFilterParams, type AuditFilters } from "./audit";
import { localDay } from "./dates";

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

/** Hands a file to the browser to save (kept until it is, then released). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Downloads a CSV the server streams as it reads (a year of rows included), keeps it in memory
 * until it ends, then hands it to the browser as `filename`. Reports the rows received so far
 * (the header excluded); returns how many came. `signal` stops it, and nothing is saved then.
 */
async function downloadCsv(url: string, filename: string, onRows: (rows: number) => void, signal?: AbortSignal): Promise<number> {
  const response = await apiRequest(url, { signal });
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
      onRows(Math.max(0, lines - 1));
    }
  }
  // Cancelled as the last bytes came: still not saved, as asked.
  signal?.throwIfAborted();
  saveFile(new Blob(chunks as BlobPart[], { type: "text/csv;charset=utf-8" }), filename);
  return Math.max(0, lines - 1);
}

/**
 * Downloads every purchase matching the filters as CSV, reporting the purchases received so far
 * against `total` (the search's count, raised when more arrived meanwhile).
 */
export async function exportPurchasesCsv(filters: PurchaseFilters, total: number, onProgress: (done: number, total: number) => void): Promise<number> {
  const query = purchaseFilterParams(filters).toString();
  const url = query ? `/api/admin/purchases/export?${query}` : "/api/admin/purchases/export";
  return downloadCsv(url, `compras-${new Date().toISOString().slice(0, 10)}.csv`, (done) => onProgress(done, Math.max(total, done)));
}

/**
 * Downloads every trail entry matching the filters (not only the pages loaded) as the server
 * writes them, newest first. Nothing counts them beforehand: progress is the entries received.
 */
export async function exportAuditCsv(filters: AuditFilters, onProgress: (done: number) => void, signal?: AbortSignal): Promise<number> {
  const query = auditFilterParams(filters).toString();
  const url = query ? `/api/admin/audit/export?${query}` : "/api/admin/audit/export";
  return downloadCsv(url, `registro-${localDay()}.csv`, onProgress, signal);
}
