import { apiRequest, errorMessage } from "@/lib/api/fetcher";
import { invoiceUrl } from "@/lib/api/client";

export const INVOICE_WINDOW = { width: 800, height: 1000 } as const;
export const PRINT_DELAY_MS = 500;

export type InvoiceOutcome = { ok: true } | { ok: false; reason: "blocked" | "failed"; message?: string };

/**
 * Opens the printable invoice in an 800×1000 window and prints it 0.5 s after it loads
 * (SPEC §2 "Receipt dialog"). The window opens at once, inside the click, so pop-up
 * blockers allow it; the invoice is checked before the window shows it.
 */
export async function openInvoice(purchaseId: number, purchaseToken: string): Promise<InvoiceOutcome> {
  const features = `width=${INVOICE_WINDOW.width},height=${INVOICE_WINDOW.height},scrollbars=yes`;
  const win = window.open("", "_blank", features);
  if (!win) return { ok: false, reason: "blocked" };
  const url = invoiceUrl(purchaseId, purchaseToken);
  try {
    await apiRequest(url);
  } catch (error) {
    win.close();
    return { ok: false, reason: "failed", message: errorMessage(error, "") || undefined };
  }
  win.location.replace(url);
  const started = Date.now();
  const timer = window.setInterval(() => {
    try {
      if (win.closed || Date.now() - started > 15000) {
        window.clearInterval(timer);
        return;
      }
      if (win.location.href !== "about:blank" && win.document.readyState === "complete") {
        window.clearInterval(timer);
        window.setTimeout(() => win.print(), PRINT_DELAY_MS);
      }
    } catch {
      // Not readable yet while it navigates.
    }
  }, 100);
  return { ok: true };
}
