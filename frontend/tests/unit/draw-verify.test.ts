// The browser's draw verifier against the Rust reference (crates/domain/src/draw): every hash is
// recomputed here with node:crypto from the bytes decision 0020 names, and the tree against
// RFC 6962's recursive definition, so both sides are held to the same bytes independently.
import { describe, expect, it } from "vitest";
import type { DrawStep, PrizeResult, PublishedLedger } from "@/lib/api/types";
import {
  applyRule,
  checkLedger,
  digitsUsed,
  fromHex,
  isProblem,
  leafHash,
  LedgerFormatError,
  merkleRoot,
  MerkleTree,
  nodeHash,
  numberFromBeacon,
  numbersOf,
  purchaseTag,
  toHex,
  UnreadableResultError,
  verifyInclusion,
  type LedgerEntry,
} from "@/lib/draw/verify";
import { chainOf, firstRoundFrom, lotteryDrawsAt, roundTime, sourceDeadline } from "@/lib/draw/chain";
import { referenceFromInput } from "@/lib/draw/reference";
import {
  beaconResult,
  fallbackRoundAfter,
  LEDGER_SALT,
  leafOf,
  lotteryResult,
  lotterySourceV2,
  publishedLedger as published,
  publishedLedgerV2,
  rfc6962Root,
  sha,
  tagOf,
} from "./draw-fixtures";

const SALT = new TextEncoder().encode("salt");
/** Numbers 1..size, three to a purchase, as ledger.rs's tests build them. */
const entries = (size: number): LedgerEntry[] =>
  Array.from({ length: size }, (_, i) => ({ number: i + 1, tag: tagOf(SALT, `RF-${Math.floor((i + 1) / 3)}`) }));

describe("the ledger's hashes", () => {
  it("tag a purchase by its trimmed, upper-case reference under the salt", async () => {
    const salt = new Uint8Array(16).fill(7);
    const expected = tagOf(salt, "RF-ABC123");
    expect(await purchaseTag(toHex(salt), " rf-abc123 ")).toEqual(expected);
    expect(await purchaseTag(toHex(salt), "RF-ABC123")).toEqual(expected);
    // Only ASCII letters change case, as Rust's to_ascii_uppercase: "ß" stays.
    expect(await purchaseTag(toHex(salt), "rf-straße")).toEqual(tagOf(salt, "RF-STRAßE"));
    // Rust trims U+0085 (JavaScript's trim does not) and keeps U+FEFF (JavaScript trims it).
    expect(await purchaseTag(toHex(salt), "\u0085RF-1\u3000")).toEqual(tagOf(salt, "RF-1"));
    expect(await purchaseTag(toHex(salt), "\ufeffRF-1")).toEqual(tagOf(salt, "\ufeffRF-1"));
    await expect(purchaseTag("abc", "RF-1")).rejects.toBeInstanceOf(LedgerFormatError);
  });

  it("hash a leaf as 0x00, the number in 4 bytes big-endian and the tag, and a node as 0x01, left, right", async () => {
    const tag = tagOf(SALT, "RF-1");
    expect(await leafHash(46, tag)).toEqual(sha(new Uint8Array([0, 0, 0, 0, 46]), tag));
    expect(await leafHash(99_999, tag)).toEqual(sha(new Uint8Array([0, 0, 1, 0x86, 0x9f]), tag));
    const [l, r] = [sha("l"), sha("r")];
    expect(await nodeHash(l, r)).toEqual(sha(new Uint8Array([1]), l, r));
  });

  it("gives an empty ledger SHA-256 of nothing and a one-entry ledger its leaf", async () => {
    expect(toHex(await merkleRoot([]))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const [one] = entries(1);
    const tree = await MerkleTree.over([one!]);
    expect(tree.root).toEqual(leafOf(one!));
    expect(tree.inclusionProof(0)).toEqual([]);
    expect(tree.inclusionProof(1)).toBeNull();
  });

  it("decodes and writes hex both ways, refusing what is not hex", () => {
    expect(fromHex("00ff7Aa0")).toEqual(new Uint8Array([0, 255, 0x7a, 0xa0]));
    expect(toHex(new Uint8Array([0, 255, 10]))).toBe("00ff0a");
    for (const bad of ["0", "zz", "0g", "é0"]) expect(fromHex(bad)).toBeNull();
  });
});

describe("the ledger's tree", () => {
  it("has RFC 6962's root for every size from 1 to 9, and every entry proves its place and only its place", async () => {
    for (let size = 1; size <= 9; size++) {
      const ledger = entries(size);
      const tree = await MerkleTree.over(ledger);
      expect(tree.root, `size ${size}`).toEqual(rfc6962Root(ledger.map(leafOf)));
      const bigger = await merkleRoot(entries(size + 1));
      for (let index = 0; index < size; index++) {
        const proof = tree.inclusionProof(index)!;
        const leaf = leafOf(ledger[index]!);
        expect(await verifyInclusion(leaf, index, size, proof, tree.root), `${index}/${size}`).toBe(true);
        // The size is published with the root: a proof holds for that pair only.
        expect(await verifyInclusion(leaf, index, size + 1, proof, bigger)).toBe(false);
        if (size > 1) expect(await verifyInclusion(leaf, (index + 1) % size, size, proof, tree.root)).toBe(false);
      }
      expect(tree.inclusionProof(size)).toBeNull();
    }
  });

  it("changes its root when one entry is changed, removed or added, and the changed entry's proof fails", async () => {
    const ledger = entries(13);
    const tree = await MerkleTree.over(ledger);
    const index = 6;
    const proof = tree.inclusionProof(index)!;
    const forgeries: LedgerEntry[] = [
      { ...ledger[index]!, number: ledger[index]!.number + 1000 },
      { ...ledger[index]!, tag: ledger[index]!.tag.map((b, i) => (i === 0 ? b ^ 1 : b)) },
      { ...ledger[index]!, tag: tagOf(SALT, "RF-SOMEONE-ELSE") },
    ];
    for (const forged of forgeries) {
      const tampered = ledger.map((e, i) => (i === index ? forged : e));
      expect(await merkleRoot(tampered)).not.toEqual(tree.root);
      expect(await verifyInclusion(leafOf(forged), index, 13, proof, tree.root)).toBe(false);
    }
    expect(await merkleRoot(ledger.filter((_, i) => i !== index))).not.toEqual(tree.root);
    expect(await merkleRoot([...ledger, { number: 14, tag: new Uint8Array(32) }])).not.toEqual(tree.root);
  });

  it("hashes a 99,999-number ledger to RFC 6962's root quickly enough for a phone", async () => {
    const salt = new Uint8Array(16).fill(3);
    const ledger = Array.from({ length: 99_999 }, (_, i) => ({ number: i + 1, tag: tagOf(salt, `RF-${i % 5000}`) }));
    const started = performance.now();
    const root = await merkleRoot(ledger);
    const elapsed = performance.now() - started;
    expect(root).toEqual(rfc6962Root(ledger.map(leafOf)));
    expect(elapsed).toBeLessThan(15_000);
  }, 60_000);
});

const lottery = (result: string) => ({ kind: "lottery" as const, result });
const winnerOf = (result: string, max: number, sold: number[], won: number[] = []) => applyRule(lottery(result), max, new Set(sold), new Set(won)).winner;

describe("the published rule", () => {
  it("uses as many digits as the raffle's size has", () => {
    expect(digitsUsed(100)).toBe(3);
    expect(digitsUsed(9_999)).toBe(4);
    expect(digitsUsed(10_000)).toBe(5);
    expect(digitsUsed(99_999)).toBe(5);
  });

  it("lets a sold number named by the result win, whatever its leading zeros or separators", () => {
    const sold = [46, 5_678, 9_999];
    expect(winnerOf("0046", 9_999, sold)).toBe(46);
    expect(winnerOf("46", 9_999, sold)).toBe(46);
    expect(winnerOf("12-34-5678", 9_999, sold)).toBe(5_678);
    expect(winnerOf("12.34/5678", 9_999, sold)).toBe(5_678);
    expect(winnerOf("7 765 678", 9_999, sold)).toBe(5_678);
    expect(winnerOf("  9999 ", 9_999, sold)).toBe(9_999);
  });

  it("records which digits it read, reading a 99,999-number raffle's results with 5", () => {
    expect(applyRule(lottery(" 46 "), 99_999, new Set([46]), new Set()).steps).toEqual<DrawStep[]>([
      { step: "lastDigits", result: "46", digits: 5, used: "00046", number: 46 },
      { step: "wins", number: 46 },
    ]);
    expect(applyRule(lottery("3 812 345"), 99_999, new Set([12_345]), new Set()).steps[0]).toEqual<DrawStep>({
      step: "lastDigits",
      result: "3 812 345",
      digits: 5,
      used: "12345",
      number: 12_345,
    });
  });

  it("passes an unsold number to the next sold one upward", () => {
    const outcome = applyRule(lottery("0050"), 9_999, new Set([10, 51, 70]), new Set());
    expect(outcome.winner).toBe(51);
    expect(outcome.steps[1]).toEqual<DrawStep>({ step: "notSold", number: 50, next: 51 });
    expect(winnerOf("0052", 9_999, [10, 51, 70])).toBe(70);
  });

  it("goes on from the first number past the last", () => {
    const outcome = applyRule(lottery("9990"), 9_999, new Set([20, 3]), new Set());
    expect(outcome).toEqual({
      drawn: 9_990,
      winner: 3,
      steps: [
        { step: "lastDigits", result: "9990", digits: 4, used: "9990", number: 9_990 },
        { step: "notSold", number: 9_990, next: 3 },
        { step: "wrappedAround" },
        { step: "wins", number: 3 },
      ],
    });
  });

  it("sends numbers the raffle does not have upward too", () => {
    const zero = applyRule(lottery("0000"), 9_999, new Set([1, 2]), new Set());
    expect(zero.winner).toBe(1);
    expect(zero.steps[1]).toEqual<DrawStep>({ step: "notInRaffle", number: 0, maxTickets: 9_999 });
    // A 500-number raffle reads 3 digits: 501–999 are not its numbers.
    const above = applyRule(lottery("777"), 500, new Set([1, 300]), new Set());
    expect(above.steps.slice(1)).toEqual<DrawStep[]>([{ step: "notInRaffle", number: 777, maxTickets: 500 }, { step: "wrappedAround" }, { step: "wins", number: 1 }]);
    expect(winnerOf("250", 500, [1, 300])).toBe(300);
  });

  it("passes a number that won an earlier prize on", () => {
    const outcome = applyRule(lottery("0051"), 9_999, new Set([51, 60]), new Set([51]));
    expect(outcome.winner).toBe(60);
    expect(outcome.steps[1]).toEqual<DrawStep>({ step: "alreadyWon", number: 51, next: 60 });
    expect(winnerOf("0061", 9_999, [51, 60], [60])).toBe(51);
  });

  it("gives no winner when nothing is left to win", () => {
    expect(applyRule(lottery("0001"), 9_999, new Set(), new Set()).steps.at(-1)).toEqual<DrawStep>({ step: "noWinner" });
    expect(winnerOf("0001", 9_999, [1], [1])).toBeNull();
  });

  it("refuses results that are not numbers, as the server does", () => {
    for (const bad of ["", "   ", "12a4", "--", "½", "1e5", "12_34", "١٢٣٤"]) {
      expect(() => applyRule(lottery(bad), 9_999, new Set([1]), new Set()), JSON.stringify(bad)).toThrow(UnreadableResultError);
    }
  });

  it("names a beacon's number from the first eight bytes of its randomness", () => {
    const randomness = new Uint8Array(32);
    randomness[7] = 100;
    expect(numberFromBeacon(1, randomness, 99_999).number).toBe(101);
    randomness.set([0, 0, 0, 0, 0, 1, 0x86, 0x9f]);
    expect(numberFromBeacon(1, randomness, 99_999).number).toBe(1);
    const max = numberFromBeacon(7, new Uint8Array(32).fill(0xff), 99_999);
    expect(max.number).toBe(Number(2n ** 64n - 1n - ((2n ** 64n - 1n) / 99_999n) * 99_999n) + 1);
    expect(max.step).toEqual<DrawStep>({ step: "beacon", round: 7, randomnessHex: "ff".repeat(32), number: max.number });
  });
});

describe("checking a published ledger", () => {
  it("confirms an honest draw prize by prize", async () => {
    const findings = await checkLedger(published());
    expect(findings.map((f) => f.kind)).toEqual(["rootMatches", "winnerConfirmed", "winnerConfirmed", "notDrawn"]);
    expect(findings[2]).toMatchObject({ position: 2, winner: 9_000, steps: expect.arrayContaining([{ step: "alreadyWon", number: 5_678, next: 9_000 }]) });
  });

  it("draws the prizes in position order whatever the file's order", async () => {
    const draw = published();
    const findings = await checkLedger({ ...draw, prizes: [...draw.prizes].reverse() });
    expect(findings.flatMap((f) => ("position" in f ? [f.position] : []))).toEqual([1, 2, 3]);
    expect(findings.every((f) => f.kind !== "winnerDiffers")).toBe(true);
  });

  it("catches a ledger changed after the commitment", async () => {
    const draw = published();
    const added = { ...draw, entries: [...draw.entries, [9_500, toHex(tagOf(LEDGER_SALT, "RF-LATE"))] as [number, string]] };
    const reassigned = { ...draw, entries: draw.entries.map((e, i) => (i === 1 ? ([e[0], toHex(tagOf(LEDGER_SALT, "RF-FRIEND"))] as [number, string]) : e)) };
    for (const tampered of [added, reassigned]) {
      const findings = await checkLedger(tampered);
      expect(findings).toContainEqual({ kind: "rootDiffers", computed: expect.stringMatching(/^[0-9a-f]{64}$/) });
    }
    expect(await checkLedger(added)).toContainEqual({ kind: "sizeDiffers", published: 4, counted: 5 });
  });

  it("reads a winner left out of the file as none", async () => {
    const draw = published();
    const empty = { ...draw, entries: [], size: 0, root: toHex(sha("")), prizes: [{ ...draw.prizes[0]!, winningNumber: undefined }] };
    expect(await checkLedger(empty)).toContainEqual(expect.objectContaining({ kind: "winnerConfirmed", position: 1, winner: null }));
  });

  it("catches a winner the rule does not give", async () => {
    const draw = published();
    draw.prizes[0]!.winningNumber = 50;
    const findings = await checkLedger(draw);
    expect(findings).toContainEqual({ kind: "rootMatches", size: 4 });
    expect(findings[1]).toMatchObject({ kind: "winnerDiffers", position: 1, published: 50, computed: 5_678 });
  });

  it("flags an unsorted ledger, a foreign number and an unreadable result", async () => {
    const draw = published();
    const [a, b, ...rest] = draw.entries;
    draw.entries = [b!, a!, ...rest, [12_000, "00".repeat(32)]];
    draw.prizes[0]!.result = lotteryResult("12a4");
    const findings = await checkLedger(draw);
    expect(findings).toContainEqual({ kind: "notSorted", index: 1 });
    expect(findings).toContainEqual({ kind: "notInRaffle", number: 12_000 });
    expect(findings).toContainEqual({ kind: "resultUnreadable", position: 1 });
  });

  it("checks a beacon result's randomness against its signature and its round against the announced one", async () => {
    const signature = sha("a signature").slice(0, 48);
    const randomness = sha(signature);
    const beacon = (round: number, random: Uint8Array): PrizeResult => ({ kind: "beacon", round, randomness: toHex(random), signature: toHex(signature) });
    const draw = published();
    const number = numberFromBeacon(9, randomness, 9_999).number;
    const expected = applyRule({ kind: "beacon", round: 9, randomness }, 9_999, new Set([46, 50, 5_678, 9_000]), new Set()).winner;
    draw.prizes = [{ position: 1, title: "Moto", source: { kind: "beacon", round: 9 }, result: beacon(9, randomness), winningNumber: expected }];
    const confirmed = (await checkLedger(draw))[1];
    expect(confirmed).toMatchObject({ kind: "winnerConfirmed", position: 1, winner: expected });
    expect(confirmed && "steps" in confirmed && confirmed.steps[0]).toEqual<DrawStep>({ step: "beacon", round: 9, randomnessHex: toHex(randomness), number });

    draw.prizes[0]!.result = beacon(9, sha("other"));
    expect(await checkLedger(draw)).toContainEqual({ kind: "randomnessDiffers", position: 1 });
    draw.prizes[0]!.result = beacon(10, randomness);
    expect(await checkLedger(draw)).toContainEqual({ kind: "roundDiffers", position: 1, announced: 9, used: 10 });
  });

  it("refuses a file that is not a ledger", async () => {
    await expect(checkLedger(published({ root: "nope" }))).rejects.toBeInstanceOf(LedgerFormatError);
    await expect(checkLedger(published({ entries: [[1, "zz"]] }))).rejects.toBeInstanceOf(LedgerFormatError);
    await expect(checkLedger({ ...published(), format: "other" } as unknown as PublishedLedger)).rejects.toBeInstanceOf(LedgerFormatError);
  });
});

describe("a buyer's numbers", () => {
  it("are found, and proven, from their reference alone", async () => {
    const draw = published();
    expect(await numbersOf(draw, "rf-ana")).toEqual([
      { number: 46, proven: true },
      { number: 5_678, proven: true },
    ]);
    expect(await numbersOf(draw, "RF-NOBODY")).toEqual([]);
    const forged = published({ root: toHex(fromHex(draw.root)!.map((b, i) => (i === 0 ? b ^ 1 : b))) });
    expect(await numbersOf(forged, "RF-ANA")).toEqual([
      { number: 46, proven: false },
      { number: 5_678, proven: false },
    ]);
  });

  it("are looked up by the reference a pasted link carries", () => {
    expect(referenceFromInput("  rf-7k3m9q2x ")).toEqual({ kind: "reference", reference: "rf-7k3m9q2x" });
    expect(referenceFromInput("https://rifa.example/comprobante?ref=RF-7K3M9Q2X")).toEqual({ kind: "reference", reference: "RF-7K3M9Q2X" });
    expect(referenceFromInput("www.rifa.example/recibo/RF-000001")).toEqual({ kind: "reference", reference: "RF-000001" });
    expect(referenceFromInput("https://rifa.example/compra/12#k3y")).toEqual({ kind: "linkWithoutReference" });
  });
});

describe("checking a rifa-draw-v2 file", () => {
  const SOLD = [46, 50, 5_678, 9_000];
  /** 2026-12-24 19:45 in Caracas (UTC−4) is 23:45 UTC. */
  const DRAWS_AT = Date.UTC(2026, 11, 24, 23, 45);
  const HOUR = 3_600_000;
  /** The place a round's randomness names among `count` numbers (never in the incomplete last round of 2^256 here). */
  const placeOf = (result: { randomness: string }, count: number) => Number(BigInt(`0x${result.randomness}`) % BigInt(count));

  it("settles each prize by the file's rule, a lottery's chosen digits and a lapsed lottery's fallback round", async () => {
    const lapsedRound = fallbackRoundAfter(DRAWS_AT + 2 * HOUR);
    const round = beaconResult(lapsedRound);
    // Prize 1: 5678 mod 4 sold = 2, the third of 46, 50, 5678, 9000. Prize 2 reads 2 digits: 37 mod 3 = 1, the second of 46, 50, 9000.
    // Prize 3's lottery gave nothing by its deadline (2 h after its draw); its round decides between 46 and 9000.
    const expected3 = [46, 9_000][placeOf(round, 2)]!;
    const draw = publishedLedgerV2("rifa-among-sold-v2", [
      { position: 1, title: "Moto", source: lotterySourceV2(), results: [{ source: 0, result: lotteryResult("3 875 678"), recordedAt: "" }], result: lotteryResult("3 875 678"), winningNumber: 5_678 },
      { position: 2, title: "Casco", source: { ...lotterySourceV2(), digits: 2 }, results: [{ source: 0, result: lotteryResult("12-4037"), recordedAt: "" }], result: lotteryResult("12-4037"), winningNumber: 50 },
      { position: 3, title: "Gorra", source: lotterySourceV2(2), results: [{ source: 1, result: round, recordedAt: "" }], result: round, winningNumber: expected3 },
      { position: 4, title: "Llavero", source: lotterySourceV2(), results: [], result: null, winningNumber: null },
    ]);
    const findings = await checkLedger(draw);
    expect(findings.map((f) => f.kind)).toEqual(["rootMatches", "winnerConfirmed", "winnerConfirmed", "winnerConfirmed", "notDrawn"]);
    expect(findings[1]).toMatchObject({ position: 1, winner: 5_678, steps: [{ step: "digits", used: "5678" }, { step: "inPlay", count: 4 }, { step: "place", remainder: 2, count: 4, number: 5_678 }, { step: "wins", number: 5_678 }] });
    expect(findings[2]).toMatchObject({ position: 2, winner: 50, steps: expect.arrayContaining([{ step: "digits", result: "12-4037", digits: 2, used: "37" }]) });
    expect(findings[3]).toMatchObject({ position: 3, winner: expected3 });
    expect(findings[3] && "steps" in findings[3] && findings[3].steps.slice(0, 2)).toEqual<DrawStep[]>([
      { step: "sourceLapsed", source: 0, deadline: "2026-12-25T01:45:00Z" },
      { step: "beaconRandomness", round: lapsedRound, randomnessHex: round.randomness },
    ]);
  });

  it("passes a number-v2 prize whose number is unsold to its fallback round, which decides among the sold", async () => {
    const fallback = fallbackRoundAfter(DRAWS_AT + 24 * HOUR);
    const round = beaconResult(fallback, "round of the moto");
    const expected = SOLD[placeOf(round, 4)]!;
    const prize = (results: NonNullable<PublishedLedger["prizes"][number]["results"]>, winningNumber: number | null) => ({
      position: 1,
      title: "Moto",
      source: lotterySourceV2(),
      results,
      result: results.at(-1)?.result ?? null,
      winningNumber,
    });
    const lottery = { source: 0, result: lotteryResult("0047"), recordedAt: "" };
    const findings = await checkLedger(publishedLedgerV2("rifa-number-v2", [prize([lottery, { source: 1, result: round, recordedAt: "" }], expected)]));
    expect(findings[1]).toMatchObject({ kind: "winnerConfirmed", position: 1, winner: expected });
    expect(findings[1] && "steps" in findings[1] && findings[1].steps.slice(0, 5)).toEqual<DrawStep[]>([
      { step: "digits", result: "0047", digits: 4, used: "0047" },
      { step: "names", number: 47 },
      { step: "notSoldNextSource", number: 47 },
      { step: "nextSource" },
      { step: "beaconRandomness", round: fallback, randomnessHex: round.randomness },
    ]);
    // Until the round is recorded the prize is not drawn; a winner published before it is not the rule's.
    expect((await checkLedger(publishedLedgerV2("rifa-number-v2", [prize([lottery], null)])))[1]).toEqual({ kind: "notDrawn", position: 1 });
    expect((await checkLedger(publishedLedgerV2("rifa-number-v2", [prize([lottery], 47)])))[1]).toMatchObject({ kind: "winnerDiffers", published: 47, computed: null });
  });

  it("holds a round to the one the source announces, recomputed from its deadline, not to the file's word", async () => {
    const fallback = fallbackRoundAfter(DRAWS_AT + 24 * HOUR);
    const later = beaconResult(fallback + 1, "a later round");
    const sold = SOLD[placeOf(later, 4)]!;
    const draw = publishedLedgerV2("rifa-among-sold-v2", [
      { position: 1, title: "Moto", source: { ...lotterySourceV2(), fallbackRound: fallback + 1 }, results: [{ source: 1, result: later, recordedAt: "" }], result: later, winningNumber: sold },
    ]);
    const findings = await checkLedger(draw);
    expect(findings).toContainEqual({ kind: "roundDiffers", position: 1, announced: fallback, used: fallback + 1 });
    expect(findings.some(isProblem)).toBe(true);
    draw.prizes[0]!.results = [{ source: 1, result: { ...beaconResult(fallback), randomness: later.randomness }, recordedAt: "" }];
    expect(await checkLedger(draw)).toContainEqual({ kind: "randomnessDiffers", position: 1 });
  });

  it("still reads rifa-draw-v1 files by the first rule, and refuses an unknown rule", async () => {
    expect((await checkLedger(published())).map((f) => f.kind)).toEqual(["rootMatches", "winnerConfirmed", "winnerConfirmed", "notDrawn"]);
    await expect(checkLedger(publishedLedgerV2("rifa-rule-v9", []))).rejects.toBeInstanceOf(LedgerFormatError);
    await expect(checkLedger(publishedLedgerV2("rifa-among-sold-v2", [{ position: 1, title: "Moto", source: { ...lotterySourceV2(), timeZone: "Mars/Olympus" }, results: [{ source: 1, result: beaconResult(1), recordedAt: "" }], winningNumber: null }]))).rejects.toBeInstanceOf(LedgerFormatError);
  });
});

describe("a prize's chain", () => {
  it("follows a lottery with the first round ten minutes or more after its deadline", () => {
    const source = { ...lotterySourceV2(2), drawDate: "2030-01-15", drawTime: "16:45" };
    const deadline = sourceDeadline(source)!;
    expect(new Date(deadline).toISOString()).toBe("2030-01-15T22:45:00.000Z");
    const [, next] = chainOf("rifa-among-sold-v2", source);
    expect(next).toEqual({ kind: "beacon", round: fallbackRoundAfter(deadline) });
    const round = (next as { round: number }).round;
    expect(roundTime(round)).toBeGreaterThanOrEqual(deadline + 600_000);
    expect(roundTime(round - 1)).toBeLessThan(deadline + 600_000);
    expect(chainOf("rifa-rule-v1", source)).toEqual([source]);
    expect(chainOf("rifa-number-v2", { kind: "beacon", round: 9 })).toEqual([{ kind: "beacon", round: 9 }]);
  });

  it("reads a lottery's time on its own clock, an hour later in a clock's gap and the earlier of a repeated hour", () => {
    expect(lotteryDrawsAt({ ...lotterySourceV2(), drawTime: "16:45", timeZone: "America/Bogota" })).toBe(Date.UTC(2026, 11, 24, 21, 45));
    expect(lotteryDrawsAt({ ...lotterySourceV2(), drawDate: "2026-03-08", drawTime: "02:30", timeZone: "America/New_York" })).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(lotteryDrawsAt({ ...lotterySourceV2(), drawDate: "2026-11-01", drawTime: "01:30", timeZone: "America/New_York" })).toBe(Date.UTC(2026, 10, 1, 5, 30));
    expect(lotteryDrawsAt({ ...lotterySourceV2(), drawTime: undefined, timeZone: undefined })).toBe(Date.UTC(2026, 11, 24, 4, 0));
    expect(firstRoundFrom(1_692_803_367_000)).toBe(1);
    expect(firstRoundFrom(1_692_803_368_000)).toBe(2);
  });
});
