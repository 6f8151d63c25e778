// The verifiable draw's bytes computed with node:crypto, independently of src/lib/draw/verify.ts
// (WebCrypto), and a published ledger built from them for tests to check.
import { createHash } from "node:crypto";
import type { PrizeResult, PublicDraw, PublishedLedger } from "@/lib/api/types";

export const sha = (...parts: (Uint8Array | string)[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};
const be32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** SHA-256("rifa-ledger-v1" ‖ 0x00 ‖ salt ‖ reference), the reference as given. */
export const tagOf = (salt: Uint8Array, reference: string) => sha("rifa-ledger-v1", new Uint8Array([0]), salt, reference);
export const leafOf = (e: { number: number; tag: Uint8Array }) => sha(new Uint8Array([0]), be32(e.number), e.tag);
export const nodeOf = (l: Uint8Array, r: Uint8Array) => sha(new Uint8Array([1]), l, r);

/** RFC 6962 §2.1, recursively: split at the largest power of two below the size. */
export function rfc6962Root(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha("");
  if (leaves.length === 1) return leaves[0]!;
  let split = 1;
  while (split * 2 < leaves.length) split *= 2;
  return nodeOf(rfc6962Root(leaves.slice(0, split)), rfc6962Root(leaves.slice(split)));
}

export const LEDGER_SALT = new TextEncoder().encode("sal de la rifa 17");
export const lotteryResult = (result: string): PrizeResult => ({ kind: "lottery", result, publishedOn: "2026-12-24", officialUrl: "https://loteria.example/resultados" });
const lotterySource = { kind: "lottery" as const, lotteryName: "Lotería del Táchira", drawDate: "2026-12-24", sourceUrl: "https://loteria.example" };

/**
 * verify.rs's fixture, published: a 9,999-number raffle where RF-ANA holds 46 and 5678, RF-LUIS
 * 50 and RF-EVA 9000; prize 1 drawn from "3 875 678" (5678 wins), prize 2 from "5678" (5678
 * already won: 9000 wins), prize 3 not drawn yet.
 */
export function publishedLedger(overrides: Partial<PublishedLedger> = {}): PublishedLedger {
  const held: [number, string][] = [
    [46, "RF-ANA"],
    [50, "RF-LUIS"],
    [5_678, "RF-ANA"],
    [9_000, "RF-EVA"],
  ];
  const ledger = held.map(([number, reference]) => ({ number, tag: tagOf(LEDGER_SALT, reference) }));
  return {
    format: "rifa-draw-v1",
    raffleId: 17,
    raffleTitle: "Moto 0 km",
    maxTickets: 9_999,
    salt: hex(LEDGER_SALT),
    root: hex(rfc6962Root(ledger.map(leafOf))),
    size: 4,
    frozenAt: "2023-09-01T00:00:00Z",
    entries: ledger.map((e) => [e.number, hex(e.tag)]),
    prizes: [
      { position: 1, title: "Moto", source: lotterySource, result: lotteryResult("3 875 678"), winningNumber: 5_678 },
      { position: 2, title: "Casco", source: lotterySource, result: lotteryResult("5678"), winningNumber: 9_000 },
      { position: 3, title: "Gorra", source: { kind: "beacon", round: 1_234_567 }, result: null, winningNumber: null },
    ],
    ...overrides,
  };
}

/** The raffle page's view of the same draw: prize 1 drawn, prize 2 (drand) not yet. */
export function publicDrawFixture(overrides: Partial<PublicDraw> = {}): PublicDraw {
  return {
    raffleId: 17,
    raffleTitle: "Moto 0 km",
    maxTickets: 9_999,
    digitsUsed: 4,
    rule: "rifa-rule-v1",
    commitment: { root: "3f9a0c1e".padEnd(56, "0") + "77b2d4a0", size: 1_234, salt: "00ff", frozenAt: "2026-12-24T20:00:00Z", rule: "rifa-rule-v1" },
    prizes: [
      {
        id: 5,
        position: 1,
        title: "Moto",
        description: "Una moto 0 km",
        image: "/images/moto.jpg",
        source: lotterySource,
        results: [{ source: 0, result: lotteryResult("12-34-0050"), recordedAt: "2026-12-25T10:00:00Z" }],
        draw: {
          source: 0,
          result: lotteryResult("12-34-0050"),
          drawnNumber: 50,
          winningNumber: 51,
          steps: [
            { step: "lastDigits", result: "12-34-0050", digits: 4, used: "0050", number: 50 },
            { step: "notSold", number: 50, next: 51 },
            { step: "wins", number: 51 },
          ],
          drawnAt: "2026-12-25T10:00:00Z",
          winner: { number: 51, displayName: "María P.", country: "venezuela" },
        },
      },
      { id: 6, position: 2, title: "Casco", description: "", image: null, source: { kind: "beacon", round: 1_234_567 }, results: [], draw: null },
    ],
    ...overrides,
  };
}

/** A lottery drawn at 19:45 in Caracas (23:45 UTC) on 2026-12-24, its result recorded within `deadlineHours` (24 when absent). */
export const lotterySourceV2 = (deadlineHours?: number) => ({ ...lotterySource, drawTime: "19:45", timeZone: "America/Caracas", ...(deadlineHours ? { deadlineHours } : {}) });

/**
 * The first quicknet round at or after `utcMs` + 10 minutes, counted here from drand's genesis
 * (1692803367, a round every 3 s) independently of src/lib/draw/chain.ts.
 */
export const fallbackRoundAfter = (deadlineMs: number) => Math.ceil((deadlineMs / 1000 + 600 - 1_692_803_367) / 3) + 1;

/** A round's result whose randomness is SHA-256 of its (made-up) signature, as drand derives it. */
export function beaconResult(round: number, seed = "a signature"): Extract<PrizeResult, { kind: "beacon" }> {
  const signature = sha(seed).slice(0, 48);
  return { kind: "beacon", round, randomness: hex(sha(signature)), signature: hex(signature) };
}

/** The same ledger published as `rifa-draw-v2` under `rule`, with `prizes` as given. */
export function publishedLedgerV2(rule: string, prizes: PublishedLedger["prizes"]): PublishedLedger {
  return { ...publishedLedger(), format: "rifa-draw-v2", rule, prizes };
}
