// The audit trail's tab, its pure side: the query a filter asks (local days as RFC 3339 instants),
// the targets, and the CSV of the entries loaded with the purchase export's formula guard.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCsv, auditQuery, auditTarget, localDayStart, NO_AUDIT_FILTERS, purchaseOfTarget } from "@/lib/admin/audit";
import { csvCell, csvText } from "@/lib/admin/csv";
import { isPurchaseViewKey, swrKeys } from "@/lib/swr/cache";
import type { AuditEntry } from "@/lib/api/types";

// Node reads TZ when it changes: the admin's days are Caracas days (UTC-4, no summer time).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "America/Caracas";
});
afterAll(() => {
  process.env.TZ = zone;
});

describe("the trail's query", () => {
  it("asks only the page size when nothing is filtered", () => {
    expect(auditQuery(NO_AUDIT_FILTERS)).toBe("limit=50");
  });

  it("sends each filter, trimmed, with the days as the instants their local bounds start", () => {
    const query = auditQuery({ actor: "  admin ", action: "purchase.decided", target: " purchase:42 ", from: "2026-01-15", until: "2026-01-20" });
    expect(query).toBe(
      "actor=admin&action=purchase.decided&target=purchase%3A42&from=2026-01-15T04%3A00%3A00.000Z&until=2026-01-21T04%3A00%3A00.000Z&limit=50",
    );
    // `until` is exclusive on the server: the start of the next day keeps the whole last day.
    expect(Object.fromEntries(new URLSearchParams(query))).toMatchObject({ from: "2026-01-15T04:00:00.000Z", until: "2026-01-21T04:00:00.000Z" });
  });

  it("leaves out 'all' actions and blank text, and adds `before` for an older page", () => {
    expect(auditQuery({ ...NO_AUDIT_FILTERS, actor: "   ", target: " " }, { before: 51 })).toBe("before=51&limit=50");
    expect(auditQuery({ ...NO_AUDIT_FILTERS, until: "2026-12-31" }, { limit: 200 })).toBe("until=2027-01-01T04%3A00%3A00.000Z&limit=200");
  });

  it("turns a local day into the UTC instant it starts at", () => {
    expect(localDayStart("2026-03-01")).toBe("2026-03-01T04:00:00.000Z");
    expect(localDayStart("2026-02-28", 1)).toBe("2026-03-01T04:00:00.000Z");
  });

  it("reads a bare or # number as a purchase, and a purchase target back as its id", () => {
    expect(auditTarget("42")).toBe("purchase:42");
    expect(auditTarget(" #007 ")).toBe("purchase:7");
    expect(auditTarget("raffle:3")).toBe("raffle:3");
    expect(auditTarget("")).toBe("");
    expect(purchaseOfTarget("purchase:42")).toBe(42);
    expect(purchaseOfTarget("raffle:3")).toBeNull();
    expect(purchaseOfTarget("purchase:42x")).toBeNull();
    expect(purchaseOfTarget(null)).toBeNull();
  });

  it("is read again after a decision, but not its check of the chain", () => {
    expect(isPurchaseViewKey([swrKeys.audit("limit=50"), 2])).toBe(true);
    expect(isPurchaseViewKey(swrKeys.auditVerification)).toBe(false);
  });
});

describe("the CSV guard (the same cases as crates/api/src/dto/csv.rs)", () => {
  it("defuses formulas in every piece and quotes cells with separators", () => {
    const cases: [string, string][] = [
      ["Ana", "Ana"],
      ["=1+1", "'=1+1"],
      ["  @SUM(A1)", "'  @SUM(A1)"],
      ["\t=cmd", "'\t=cmd"],
      ["-5", "-5"],
      ["-2.50", "-2.50"],
      ["-x", "'-x"],
      ["Ana;=1+1;", '"Ana;\'=1+1;"'],
      ["x; =2*3", '"x;\' =2*3"'],
      ["a\n=1+1", '"a\n\'=1+1"'],
      ['"=1";=2', '"""=1"";\'=2"'],
      ["María, la de 1.234,56", '"María, la de 1.234,56"'],
      ['Pérez, "Juan"', '"Pérez, ""Juan"""'],
      ["a\nb", '"a\nb"'],
      ["", ""],
      ["+58 412", "'+58 412"],
      ["-5.00", "-5.00"],
      ["Ana,@SUM(A1)", '"Ana,\'@SUM(A1)"'],
      ["a\n+1", '"a\n\'+1"'],
      ["1;-5.00", '"1;-5.00"'],
    ];
    for (const [value, written] of cases) expect(csvCell(value), JSON.stringify(value)).toBe(written);
  });

  it("writes a byte-order mark and CRLF-ended lines", () => {
    expect(csvText([["a", "b"], ["1", "=2"]])).toBe("\uFEFFa,b\r\n1,'=2\r\n");
  });
});

describe("the trail as CSV", () => {
  const hash = (n: number) => n.toString(16).padStart(64, "0");
  const entries: AuditEntry[] = [
    {
      seq: 7,
      at: "2026-01-15T18:05:00.123Z",
      actorId: 1,
      actor: "admin",
      ip: "203.0.113.7",
      action: "purchase.decided",
      target: "purchase:42",
      changes: [
        { field: "status", before: "pending", after: "rejected" },
        { field: "adminNotes", before: null, after: "=HYPERLINK(\"x\") sin pago,=1+1" },
      ],
      hash: hash(7),
      prevHash: hash(6),
    },
    { seq: 6, at: "2026-01-15T18:00:00Z", actorId: null, actor: "@pepe", ip: null, action: "auth.sign_in_failed", target: null, changes: [], hash: hash(6), prevHash: hash(5) },
  ];

  it("holds seq, instant, actor, ip, raw action, target, changes and hash, guarded", () => {
    // Each change starts with its field, so only a piece after a separator inside a value can run.
    const lines = auditCsv(entries).split("\r\n");
    expect(lines[0]).toBe("\uFEFFseq,at,actor,ip,action,target,changes,hash");
    expect(lines[1]).toBe(`7,2026-01-15T18:05:00.123Z,admin,203.0.113.7,purchase.decided,purchase:42,"status: pending → rejected; adminNotes: ∅ → =HYPERLINK(""x"") sin pago,'=1+1",${hash(7)}`);
    // A tried name that starts like a formula is defused; a missing ip or target is an empty cell.
    expect(lines[2]).toBe(`6,2026-01-15T18:00:00Z,'@pepe,,auth.sign_in_failed,,,${hash(6)}`);
    expect(lines[3]).toBe("");
    expect(lines).toHaveLength(4);
  });
});
