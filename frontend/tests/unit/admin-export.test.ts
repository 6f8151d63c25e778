import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The panel's side of the CSV export: one request with the filters, progress as the stream
 * arrives, the file exactly as sent. (What the file holds, and its formula guard, is tested
 * over HTTP in crates/api/tests/api/export.rs.)
 */
const requests: string[] = [];
let sent: string[] = [];

vi.mock("@/lib/api/fetcher", () => ({
  apiRequest: async (url: string) => {
    requests.push(url);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of sent) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/csv; charset=utf-8" } });
  },
}));

let saved = new Uint8Array();
beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: (blob: Blob) => (void blob.arrayBuffer().then((b) => (saved = new Uint8Array(b))), "blob:x"), revokeObjectURL: () => undefined }));
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe("CSV export", () => {
  it("asks once with the filters and saves the stream as it came, counting purchases not line breaks", async () => {
    // Chunks cut mid-record, and a note whose quoted cell spans a line break and a chunk.
    sent = ["\uFEFFid,adminNotes\r\n3,\"pagó\r", "\nlisto\"\r\n2,", "\r\n1,x\r\n"];
    const { exportPurchasesCsv } = await import("@/lib/admin/export");
    const progress: [number, number][] = [];

    const count = await exportPurchasesCsv({ status: "approved", name: " ana ", raffleId: 4 }, 3, (done, total) => progress.push([done, total]));
    await new Promise((r) => setTimeout(r, 10));

    expect(requests).toEqual(["/api/admin/purchases/export?raffleId=4&name=ana&status=approved"]);
    expect(count).toBe(3);
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [3, 3],
    ]);
    // Byte for byte, the byte-order mark included.
    expect([...saved]).toEqual([...new TextEncoder().encode(sent.join(""))]);
  });

  it("reports more than the search counted when more arrived meanwhile", async () => {
    sent = ["id\r\n1\r\n2\r\n3\r\n"];
    const { exportPurchasesCsv } = await import("@/lib/admin/export");
    const progress: [number, number][] = [];

    const count = await exportPurchasesCsv({}, 2, (done, total) => progress.push([done, total]));

    expect(requests).toEqual(["/api/admin/purchases/export"]);
    expect(count).toBe(3);
    expect(progress).toEqual([[3, 3]]);
  });
});

describe("counting CSV records", () => {
  it("ends a record at a line feed outside quotes only, across chunks", async () => {
    const { countRecords } = await import("@/lib/admin/export");
    const bytes = (text: string) => new TextEncoder().encode(text);

    expect(countRecords(bytes('a,"b\r\nc"\r\n'), false)).toEqual({ records: 1, quoted: false });
    expect(countRecords(bytes('a,"say ""hi""\n'), false)).toEqual({ records: 0, quoted: true });
    expect(countRecords(bytes('still"\r\nnext\r\n'), true)).toEqual({ records: 2, quoted: false });
  });
});
