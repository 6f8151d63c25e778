import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The CSV export against a scripted search: purchases keep arriving while it pages, as during a
 * hot raffle. (The server's side of `maxId` is tested over HTTP in crates/api/tests/api/review.rs.)
 */
const requests: string[] = [];
let stored: { id: number }[] = [];
/** What buyers typed, by purchase id; "Ana" when absent. */
let names: Record<number, string> = {};

vi.mock("@/lib/api/fetcher", () => ({
  apiJson: async (url: string) => {
    requests.push(url);
    const q = new URL(url, "http://x").searchParams;
    const maxId = Number(q.get("maxId") ?? Infinity);
    const page = Number(q.get("page"));
    const size = Number(q.get("pageSize"));
    const matching = stored.filter((p) => p.id <= maxId).sort((a, b) => b.id - a.id);
    const items = matching.slice((page - 1) * size, page * size).map((p) => ({
      ...p,
      reference: `RF-${p.id}`,
      createdAt: "2026-01-02T10:00:00.000Z",
      status: "pending",
      raffleId: 1,
      raffleTitle: "Rifa",
      ticketNumbers: [p.id],
      totalAmount: "5.00",
      discountApplied: "0.00",
      paymentMethod: "Zelle",
      customerName: names[p.id] ?? "Ana",
      customerId: "V1",
      customerEmail: "a@x.com",
      customerPhone: "0414",
      customerCountry: "venezuela",
      decidedAt: null,
      adminNotes: null,
    }));
    // Two new purchases arrive right after each page is read.
    const next = stored.length + 1;
    stored.push({ id: next }, { id: next + 1 });
    return { items, total: matching.length, page, pageSize: size, totalPages: Math.ceil(matching.length / size) };
  },
}));

let csv = "";
beforeEach(() => {
  requests.length = 0;
  stored = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));
  names = {};
  vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: (blob: Blob) => (void blob.text().then((t) => (csv = t)), "blob:x"), revokeObjectURL: () => undefined }));
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe("CSV export", () => {
  it("pins every page after the first to the purchases that existed when it began", async () => {
    const { exportPurchasesCsv } = await import("@/lib/admin/export");

    const count = await exportPurchasesCsv({ status: "pending" }, () => 4, () => undefined);
    await new Promise((r) => setTimeout(r, 0));

    expect(count).toBe(250);
    expect(requests[0]).not.toContain("maxId");
    expect(requests.slice(1).every((r) => r.includes("maxId=250"))).toBe(true);
    expect(requests).toHaveLength(3);
    const ids = csv.trim().split("\r\n").slice(1).map((line) => Number(line.split(",")[0]));
    expect(new Set(ids).size).toBe(250);
    expect(Math.max(...ids)).toBe(250);
  });
});

/** RFC 4180 as a spreadsheet reads it with `separator`: quoted cells may hold anything. */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === separator) {
      row.push(cell);
      cell = "";
    } else if (!quoted && c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else {
      cell += c;
    }
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

const FORMULA = /^\s*[=+\-@]|^[\t\r]/;
const isFormula = (cell: string) => FORMULA.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell);

describe("CSV export against formula injection", () => {
  const hostile = ["Ana;=1+1;", "Ana,=1+1,", "Luis;+58 412;-x;@SUM(A1)", "a\n=1+1", "\t=cmd", "x; =2*3", '"=1";=2'];

  it.each([",", ";"])("yields no formula cell when opened with %j as the separator", async (separator) => {
    names = Object.fromEntries(hostile.map((name, i) => [i + 1, name]));
    stored = hostile.map((_, i) => ({ id: i + 1 }));
    const { exportPurchasesCsv } = await import("@/lib/admin/export");

    await exportPurchasesCsv({}, () => 4, () => undefined);
    await new Promise((r) => setTimeout(r, 0));

    const cells = parseCsv(csv.replace(/^\uFEFF/, ""), separator).flat();
    expect(cells.filter(isFormula)).toEqual([]);
    // Nor does a reader that splits at every separator, quoted or not, dropping a cell's opening quote.
    expect(csv.split(/[,;\r\n]/).map((c) => c.replace(/^"/, "")).filter(isFormula)).toEqual([]);
  });

  it("keeps every name whole in its own column when read with commas", async () => {
    names = Object.fromEntries(hostile.map((name, i) => [i + 1, name]));
    stored = hostile.map((_, i) => ({ id: i + 1 }));
    const { CSV_HEADER, exportPurchasesCsv } = await import("@/lib/admin/export");

    await exportPurchasesCsv({}, () => 4, () => undefined);
    await new Promise((r) => setTimeout(r, 0));

    const [header, ...rows] = parseCsv(csv.replace(/^\uFEFF/, ""), ",");
    const column = header!.indexOf("customerName");
    expect(rows.every((r) => r.length === CSV_HEADER.length)).toBe(true);
    expect(rows.map((r) => r[column]!.replace(/'(?=\s*[=+\-@\t])/g, ""))).toEqual([...hostile].reverse());
  });
});
