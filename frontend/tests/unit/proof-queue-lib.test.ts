// The review queue's rules (issue 16): what it asks the server, what it says first about a proof,
// which selected purchases each bulk decision sends, and what the toast reports; and the ages.
import { describe, expect, it } from "vitest";
import {
  bulkCandidates,
  bulkOutcome,
  keepShown,
  mainSignal,
  proofQueueQuery,
  selectAllState,
  toggleAll,
  toggleOne,
} from "@/lib/admin/proof-queue";
import type { QueuedProof } from "@/lib/api/types";
import { isPurchaseViewKey, swrKeys } from "@/lib/swr/cache";
import { formatAge } from "@/lib/format";
import { adminPurchaseFixture } from "./fixtures";

const item = (id: number, light: QueuedProof["light"], signals: QueuedProof["signals"] = []): QueuedProof => ({
  purchase: adminPurchaseFixture({ id, reference: `RF-${id}` }),
  light,
  signals,
});

const GREEN = item(1, "green", [{ kind: "amountMatches", read: { value: "10.00", currency: "USD" } }]);
const RED = item(2, "red", [
  { kind: "amountMatches", read: { value: "10.00", currency: "USD" } },
  { kind: "nearReuse", other: 1, distance: 3 },
  { kind: "editedWith", software: "PicsArt" },
]);
const AMBER = item(3, "amber", [{ kind: "unreadable" }]);
const UNCHECKED = item(4, null);
const RED_2 = item(5, "red", []);
const ALL = [GREEN, RED, AMBER, UNCHECKED, RED_2];

describe("the queue's query", () => {
  it("leaves the server's defaults out and pages after an id", () => {
    expect(proofQueueQuery({ light: "all", order: "oldest" })).toBe("limit=50");
    expect(proofQueueQuery({ light: "red", order: "newest", after: 17, limit: 10 })).toBe("light=red&order=newest&after=17&limit=10");
    expect(proofQueueQuery({ light: "unchecked", order: "oldest", after: null })).toBe("light=unchecked&limit=50");
  });

  it("is read again with the purchases after a decision or a live notice", () => {
    expect(isPurchaseViewKey([swrKeys.proofQueue("light=red&limit=50"), 2])).toBe(true);
    expect(isPurchaseViewKey(swrKeys.proofQueue(""))).toBe(true);
  });
});

describe("the main reason", () => {
  it("is the first signal that is not green", () => {
    expect(mainSignal(RED)).toEqual({ kind: "nearReuse", other: 1, distance: 3 });
    expect(mainSignal(AMBER)).toEqual({ kind: "unreadable" });
  });

  it("is none for a green proof, a light without such a signal, or no light yet (the light's meaning says it)", () => {
    expect(mainSignal(GREEN)).toBeNull();
    expect(mainSignal(RED_2)).toBeNull();
    expect(mainSignal({ light: null, signals: [{ kind: "unreadable" }] })).toBeNull();
  });
});

describe("bulk decisions", () => {
  it("send only the selected purchases of their light: green to approve, red to reject", () => {
    const everything = new Set(ALL.map((i) => i.purchase.id));
    expect(bulkCandidates(ALL, everything, "approved").map((i) => i.purchase.id)).toEqual([1]);
    expect(bulkCandidates(ALL, everything, "rejected").map((i) => i.purchase.id)).toEqual([2, 5]);
    expect(bulkCandidates(ALL, new Set([1, 3, 4]), "rejected")).toEqual([]);
    expect(bulkCandidates(ALL, new Set([3, 4, 5]), "rejected").map((i) => i.purchase.id)).toEqual([5]);
    expect(bulkCandidates(ALL, new Set(), "approved")).toEqual([]);
  });

  it("select all, some or none, and keep the selection to the purchases shown", () => {
    expect(selectAllState(ALL, new Set())).toBe(false);
    expect(selectAllState(ALL, new Set([2]))).toBe("indeterminate");
    expect(selectAllState(ALL, new Set([1, 2, 3, 4, 5]))).toBe(true);
    expect(selectAllState([], new Set())).toBe(false);
    expect([...toggleAll(ALL, new Set([2]))]).toEqual([1, 2, 3, 4, 5]);
    expect([...toggleAll(ALL, new Set([1, 2, 3, 4, 5]))]).toEqual([]);
    expect([...toggleOne(new Set([1]), 2, true)]).toEqual([1, 2]);
    expect([...toggleOne(new Set([1, 2]), 1, false)]).toEqual([2]);
    // A decided purchase left the queue: it no longer counts as selected.
    expect([...keepShown([GREEN, AMBER], new Set([1, 2, 3]))]).toEqual([1, 3]);
  });

  it("report how many were decided and the references of those left as they were", () => {
    const outcome = bulkOutcome(
      {
        decided: 1,
        results: [
          { id: 2, outcome: "decided", status: "rejected" },
          { id: 5, outcome: "notEligible", light: "amber", status: "pending" },
          { id: 9, outcome: "notPending", status: "approved" },
        ],
      },
      [RED, RED_2],
    );
    expect(outcome).toEqual({ decided: 1, skipped: ["RF-5", "#9"] });
  });
});

describe("ages", () => {
  const now = Date.parse("2026-11-20T14:00:00Z");
  it("say how long ago, short, in the page's language", () => {
    expect(formatAge("2026-11-20T12:00:00Z", "es", now)).toBe("hace 2 h");
    expect(formatAge("2026-11-20T12:00:00Z", "en", now)).toBe("2 hr. ago");
    expect(formatAge("2026-11-20T13:55:00Z", "es", now)).toBe("hace 5 min");
    expect(formatAge("2026-11-17T13:00:00Z", "es", now)).toBe("hace 3 d");
    expect(formatAge("2026-11-20T13:59:30Z", "es", now)).toBe("ahora");
    expect(formatAge("2026-11-20T14:00:30Z", "en", now)).toBe("now");
  });
});
