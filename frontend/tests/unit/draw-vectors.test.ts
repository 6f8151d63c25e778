// The site's verifier against the shared test vectors of the verifiable draw
// (docs/formats/draw-vectors.json), read as crates/api/src/dto/draw.rs `mod vectors` and
// `python3 scripts/verify_draw.py --vectors` read them: the same file, three implementations.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DrawStep, PrizeSource, PublishedLedger } from "@/lib/api/types";
import { chainOf, fallbackRound, firstRoundFrom, lotteryDrawsAt, QUICKNET_GENESIS, QUICKNET_PERIOD_SECS, recordInstant, roundTime, sourceDeadline } from "@/lib/draw/chain";
import {
  decide,
  parseRule,
  poolOf,
  readBeacon,
  readLottery,
  settleInOrder,
  UnreadablePrizeError,
  type ChainLink,
  type PrizeProgress,
  type Rule,
} from "@/lib/draw/fair";
import {
  applyRule,
  checkLedger,
  fromHex,
  hashFromHex,
  isProblem,
  leafHash,
  merkleRoot,
  MerkleTree,
  purchaseTag,
  sha256,
  toHex,
  UnreadableResultError,
  verifiedRandomness,
  verifyInclusion,
  type DrawInput,
  type Finding,
  type Hash,
  type LedgerEntry,
} from "@/lib/draw/verify";

type Json = Record<string, unknown>;
type InputJson = { kind: "lottery"; result: string } | { kind: "beacon"; round: number; randomness: string };
type Reading = { kind: "lottery"; result: string; digits: number } | { kind: "beacon"; round: number; randomness: string };
type LinkJson = { digits: number; state: { kind: "recorded"; input: InputJson } | { kind: "lapsed"; deadline: string } | { kind: "awaited" } };

type Vectors = {
  ledger: {
    emptyRoot: string;
    tags: Array<{ salt: string; reference: string; normalised: string; tag: string }>;
    raffle: {
      maxTickets: number;
      salt: string;
      purchases: Array<{ reference: string; numbers: number[]; tag: string }>;
      entries: Array<[number, string]>;
      leaves: string[];
      root: string;
      prefixRoots: string[];
      proofs: Array<{ number: number; index: number; path: string[] }>;
    };
    inclusionChecks: Array<{ what: string; leaf: string; index: number; size: number; path: string[]; root: string; verifies: boolean }>;
  };
  rules: {
    cases: Array<{
      what: string;
      rule: string;
      maxTickets: number;
      sold: number[];
      won: number[];
      reading: Reading;
      expected: { decision: "winner" | "nextSource" | "noWinner"; number: number | null; steps: Json[] } | { error: "notANumber" };
    }>;
  };
  chains: {
    cases: Array<{
      what: string;
      rule: string;
      maxTickets: number;
      sold: number[];
      prizes: Array<{ decided: number | null } | { chain: LinkJson[] }>;
      expected: Json[] | { error: "notANumber"; index: number };
    }>;
  };
  sources: {
    cases: Array<{ what: string; source: PrizeSource; expected: { drawsAt: string; deadline: string | null; fallbackRound: number | null } }>;
  };
  beacon: {
    genesis: number;
    period: number;
    rounds: Array<{ round: number; time: string }>;
    firstRoundFrom: Array<{ at: string; round: number }>;
    randomness: Array<{ round: number; signature: string; randomness: string }>;
  };
  files: {
    cases: Array<{ what: string; file: unknown; expected: { exit: number; findings: string[]; winners: Array<number | null> } }>;
  };
};

const vectors = JSON.parse(readFileSync(join(process.cwd(), "../docs/formats/draw-vectors.json"), "utf8")) as Vectors;

/** A hash the vectors spell in hex, as bytes (never as text). */
function hash(hex: string): Hash {
  const bytes = hashFromHex(hex);
  if (!bytes) throw new Error(`not a hash: ${hex}`);
  return bytes;
}

function ruleOf(name: string): Rule {
  const rule = parseRule(name);
  if (!rule) throw new Error(`not a rule: ${name}`);
  return rule;
}

function input(json: InputJson): DrawInput {
  return json.kind === "lottery" ? { kind: "lottery", result: json.result } : { kind: "beacon", round: json.round, randomness: hash(json.randomness) };
}

/** Steps as the published JSON writes them (no `undefined` fields). */
const asJson = (steps: readonly DrawStep[]): unknown => JSON.parse(JSON.stringify(steps));

/** An instant as the API writes one: RFC 3339, UTC, milliseconds, "Z". */
const apiInstant = (utcMs: number) => new Date(utcMs).toISOString();

describe("the ledger's bytes (draw-vectors.json ledger)", () => {
  const { raffle } = vectors.ledger;
  const entries: LedgerEntry[] = raffle.entries.map(([number, tag]) => ({ number, tag: hash(tag) }));

  it("hashes an empty ledger to SHA-256 of nothing", async () => {
    expect(toHex(await merkleRoot([]))).toBe(vectors.ledger.emptyRoot);
  });

  it.each(vectors.ledger.tags)("tags $reference as $normalised", async ({ salt, reference, tag }) => {
    expect(toHex(await purchaseTag(salt, reference))).toBe(tag);
  });

  it.each(raffle.purchases)("tags the raffle's purchase $reference", async ({ reference, numbers, tag }) => {
    expect(toHex(await purchaseTag(raffle.salt, reference))).toBe(tag);
    for (const number of numbers) expect(raffle.entries).toContainEqual([number, tag]);
  });

  it("hashes each leaf as 0x00 ‖ number ‖ tag", async () => {
    const tree = await MerkleTree.over(entries);
    expect(await Promise.all(entries.map(async (e) => toHex(await leafHash(e.number, e.tag))))).toEqual(raffle.leaves);
    expect(entries.map((_, i) => toHex(tree.leaf(i)))).toEqual(raffle.leaves);
  });

  it("builds the tree's root, and the root of every prefix", async () => {
    expect(toHex((await MerkleTree.over(entries)).root)).toBe(raffle.root);
    const prefixes = await Promise.all(raffle.prefixRoots.map(async (_, size) => toHex(await merkleRoot(entries.slice(0, size)))));
    expect(prefixes).toEqual(raffle.prefixRoots);
  });

  it.each(raffle.proofs)("proves number $number at index $index", async ({ index, path }) => {
    const tree = await MerkleTree.over(entries);
    const proof = tree.inclusionProof(index);
    expect(proof?.map(toHex)).toEqual(path);
    expect(await verifyInclusion(tree.leaf(index), index, entries.length, proof ?? [], hash(raffle.root))).toBe(true);
  });

  it.each(vectors.ledger.inclusionChecks)("inclusion: $what", async ({ leaf, index, size, path, root, verifies }) => {
    expect(await verifyInclusion(hash(leaf), index, size, path.map(hash), hash(root))).toBe(verifies);
  });
});

describe("each rule reads and decides (draw-vectors.json rules)", () => {
  it.each(vectors.rules.cases)("$what", async ({ rule: name, maxTickets, sold, won, reading, expected }) => {
    const rule = ruleOf(name);
    const [soldSet, wonSet] = [new Set(sold), new Set(won)];
    let outcome: { decision: string; number: number | null; steps: DrawStep[] };
    try {
      if (rule === "rifa-rule-v1") {
        const applied = applyRule(input(reading), maxTickets, soldSet, wonSet);
        outcome = { decision: applied.winner === null ? "noWinner" : "winner", number: applied.winner, steps: applied.steps };
      } else {
        const { reading: read, step } =
          reading.kind === "lottery" ? readLottery(reading.result, reading.digits) : readBeacon(reading.round, hash(reading.randomness));
        const { decision, steps } = await decide(rule, read, maxTickets, poolOf(soldSet, wonSet));
        outcome = { decision: decision.kind, number: decision.kind === "winner" ? decision.number : null, steps: [step, ...steps] };
      }
    } catch (error) {
      if (!(error instanceof UnreadableResultError)) throw error;
      expect(expected).toEqual({ error: error.code });
      return;
    }
    expect(expected).not.toHaveProperty("error");
    expect({ decision: outcome.decision, number: outcome.number, steps: asJson(outcome.steps) }).toEqual(expected);
  });
});

describe("chains settle in order (draw-vectors.json chains)", () => {
  const link = ({ digits, state }: LinkJson): ChainLink => ({
    digits,
    state:
      state.kind === "recorded"
        ? { kind: "recorded", input: input(state.input) }
        : state.kind === "lapsed"
          ? // As the verifier writes a lapse (verify.ts linksOf): whole seconds, "Z".
            { kind: "lapsed", deadline: recordInstant(Date.parse(state.deadline)) }
          : { kind: "awaited" },
  });

  it.each(vectors.chains.cases)("$what", async ({ rule, maxTickets, sold, prizes, expected }) => {
    const progress: PrizeProgress[] = prizes.map((prize) => ("chain" in prize ? { kind: "open", chain: prize.chain.map(link) } : { kind: "decided", winner: prize.decided }));
    let got: unknown;
    try {
      const settled = await settleInOrder(ruleOf(rule), maxTickets, new Set(sold), progress);
      got = settled.map(({ index, settlement }) =>
        settlement.kind === "decided"
          ? { kind: "decided", source: settlement.source, drawn: settlement.drawn, winner: settlement.winner, steps: asJson(settlement.steps), index }
          : { kind: "awaiting", source: settlement.source, steps: asJson(settlement.steps), index },
      );
    } catch (error) {
      if (!(error instanceof UnreadablePrizeError)) throw error;
      got = { error: error.code, index: error.index };
    }
    expect(got).toEqual(expected);
  });
});

describe("the sources' clocks (draw-vectors.json sources)", () => {
  it.each(vectors.sources.cases)("$what", ({ source, expected }) => {
    const drawsAt = source.kind === "lottery" ? lotteryDrawsAt(source) : roundTime(source.round);
    const deadline = sourceDeadline(source);
    // The round after the source, as the fair rules chain it (rifa-rule-v1 chains none).
    const next = chainOf("rifa-among-sold-v2", source)[1];
    expect({
      drawsAt: apiInstant(drawsAt),
      deadline: deadline === null ? null : apiInstant(deadline),
      fallbackRound: next?.kind === "beacon" ? next.round : null,
    }).toEqual(expected);
    expect(fallbackRound(source)).toBe(expected.fallbackRound);
    expect(chainOf("rifa-number-v2", source)).toEqual(chainOf("rifa-among-sold-v2", source));
    expect(chainOf("rifa-rule-v1", source)).toEqual([source]);
  });
});

describe("drand quicknet (draw-vectors.json beacon)", () => {
  const { beacon } = vectors;

  it("has quicknet's genesis and period", () => {
    expect([QUICKNET_GENESIS, QUICKNET_PERIOD_SECS]).toEqual([beacon.genesis, beacon.period]);
  });

  it.each(beacon.rounds)("publishes round $round at $time", ({ round, time }) => {
    expect(recordInstant(roundTime(round))).toBe(time);
  });

  it.each(beacon.firstRoundFrom)("the first round at or after $at is $round", ({ at, round }) => {
    expect(firstRoundFrom(Date.parse(at))).toBe(round);
  });

  it.each(beacon.randomness)("round $round's randomness is SHA-256 of its signature", async ({ round, signature, randomness }) => {
    expect(toHex(await sha256(fromHex(signature) as Uint8Array<ArrayBuffer>))).toBe(randomness);
    const verified = await verifiedRandomness({ kind: "beacon", round, randomness, signature });
    expect(verified && toHex(verified)).toBe(randomness);
  });
});

describe("whole files check out (draw-vectors.json files)", () => {
  /**
   * The vectors name findings as scripts/verify_draw.py does; the site's kinds that are problems,
   * by those names. The script also checks what the site does not (nor the Rust reference, whose
   * OURS list is the same): the time order of freezing and drawing (`timeOrder`), the published
   * `deadline`/`fallbackRound` and `result` against the recomputed ones (`publishedSourceDiffers`,
   * `publishedResultDiffers`), the order of `recordedAt` (`recordedAtOrder`), and it says when it
   * could not check drand's BLS signature (`blsNotChecked`, not a problem). Those are left out.
   */
  const OURS: Partial<Record<Finding["kind"], string>> = {
    notSorted: "notSorted",
    notInRaffle: "notInRaffle",
    sizeDiffers: "sizeDiffers",
    rootDiffers: "rootDiffers",
    winnerDiffers: "winnerDiffers",
    resultUnreadable: "resultUnreadable",
    roundDiffers: "beaconRoundDiffers",
    // The site checks a round's randomness against its signature (its BLS signature the server
    // and `rifa-api verify-draw` check): the part of `beaconInvalid` a browser can.
    randomnessDiffers: "beaconInvalid",
  };
  const checked = new Set(Object.values(OURS));

  it("names every problem the site can find", () => {
    const problems: Finding["kind"][] = ["notSorted", "notInRaffle", "sizeDiffers", "rootDiffers", "winnerDiffers", "resultUnreadable", "roundDiffers", "randomnessDiffers"];
    expect(Object.keys(OURS).sort()).toEqual([...problems].sort());
  });

  it.each(vectors.files.cases)("$what", async ({ file, expected }) => {
    // A copy per check: the verifier caches what it opened by the file object.
    const findings = await checkLedger(structuredClone(file) as PublishedLedger);
    const winners = findings.flatMap((f) =>
      f.kind === "winnerConfirmed" ? [f.winner] : f.kind === "winnerDiffers" ? [f.computed] : f.kind === "notDrawn" || f.kind === "resultUnreadable" ? [null] : [],
    );
    expect(winners).toEqual(expected.winners);
    const ours = expected.findings.filter((kind) => checked.has(kind));
    // Stricter than the Rust test, which compares only whether there is a problem: the same kinds.
    expect([...new Set(findings.filter(isProblem).map((f) => OURS[f.kind] ?? f.kind))].sort()).toEqual([...new Set(ours)].sort());
    expect(findings.some(isProblem)).toBe(ours.length > 0);
  });
});
