// The audit trail's tab, its pure side: the query a filter asks (local days as RFC 3339 instants),
// for a page and for the export, and the targets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditFilterParams, auditQuery, auditTarget, localDayStart, mailOfTarget, NO_AUDIT_FILTERS, purchaseOfTarget } from "@/lib/admin/audit";
import { isPurchaseViewKey, swrKeys } from "@/lib/swr/cache";

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
    expect(purchaseOfTarget("mail:9")).toBeNull();
    expect(mailOfTarget("mail:9")).toBe(9);
    expect(mailOfTarget("purchase:9")).toBeNull();
    expect(mailOfTarget("mail:")).toBeNull();
    expect(mailOfTarget(undefined)).toBeNull();
  });

  it("asks the export with the same filters, and neither page nor size", () => {
    const filters = { actor: " ana ", action: "purchase.decided", target: "#42", from: "2026-01-15", until: "2026-01-20" } as const;
    expect(auditFilterParams(filters).toString()).toBe(auditQuery(filters).replace("&limit=50", ""));
    expect(auditFilterParams(NO_AUDIT_FILTERS).toString()).toBe("");
  });

  it("is read again after a decision, with the per-person figures, but not its check of the chain", () => {
    expect(isPurchaseViewKey([swrKeys.audit("limit=50"), 2])).toBe(true);
    expect(isPurchaseViewKey(swrKeys.auditFigures("2026-01-01", "2026-01-30", -240))).toBe(true);
    expect(isPurchaseViewKey(swrKeys.auditVerification)).toBe(false);
  });
});
