import type { DrawStep } from "@/lib/api/types";
import { applyRule, digitsUsed, sha256, toHex, UnreadableResultError, type DrawInput } from "./verify";

/**
 * The fair rules checked in the browser (issue 32, decisions 0025 and 0027), step for step as
 * the Rust reference (crates/domain/src/draw/{fair,settle}.rs): every number still in play has
 * exactly the same chance to win each prize, whatever the raffle's size and whatever was sold.
 *
 * A public result is read as a whole number below a known range: a lottery result's last `D`
 * digits are below 10^D, a drand round's 32 bytes of randomness below 2^256. Under
 * `rifa-number-v2` a lottery result names the number of its last `k` digits (`k` the digits of
 * the raffle's size), which wins when sold and not yet won; under `rifa-among-sold-v2` the value
 * modulo the count of numbers in play names the winner by its place among them. A value in the
 * incomplete last round, or a number that cannot win, passes the prize to the next source of its
 * chain. A drand round is read among the sold numbers under either rule and rehashed with
 * SHA-256 in its incomplete last round, so it always decides. Values are BigInts: a lottery
 * value may need 64 bits and a round's 256.
 */

/** A raffle's rule, as its rules document names it. `rifa-rule-v1` (next sold number upward) is kept to verify raffles frozen under it. */
export type Rule = "rifa-rule-v1" | "rifa-number-v2" | "rifa-among-sold-v2";

const RULES: readonly Rule[] = ["rifa-rule-v1", "rifa-number-v2", "rifa-among-sold-v2"];

/** The rule a published document names, surrounding spaces allowed (fair.rs Rule::parse); null for any other text. */
export function parseRule(raw: string): Rule | null {
  const trimmed = rustTrim(raw);
  return RULES.find((rule) => rule === trimmed) ?? null;
}

/** A public result read as a whole number below its range. */
export type Reading =
  /** The last `digits` digits of a lottery result: a number below 10^digits. */
  | { kind: "decimal"; value: bigint; digits: number }
  /** A drand round's randomness, big-endian: a number below 2^256. */
  | { kind: "beacon"; randomness: Uint8Array };

/**
 * One step of the fair rules: the API's DrawStep (rule.rs), whose fair variants are `digits`,
 * `beaconRandomness`, `names`, `outsideRaffle`, `notSoldNextSource`, `alreadyWonNextSource`,
 * `incompleteRound`, `inPlay`, `place`, `nextSource`, `rehashed`, `sourceLapsed`, `wins` and
 * `noWinner`. Kept as a name for the steps this module builds.
 */
export type FairStep = DrawStep;

/** The most digits a lottery source may be read with (fair.rs MAX_SOURCE_DIGITS: its results fit in 64 bits). */
const MAX_SOURCE_DIGITS = 18;
const U64_MAX = (1n << 64n) - 1n;
const U32_MAX = 0xffff_ffff;
const BEACON_BYTES = 32;
const BEACON_RANGE = 1n << 256n;
/** Rust's `str::trim` (Unicode White_Space), as verify.ts reads results; JavaScript's trim differs in U+0085 and U+FEFF. */
const RUST_WHITESPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const RUST_TRIM = new RegExp(`^[${RUST_WHITESPACE}]+|[${RUST_WHITESPACE}]+$`, "g");
function rustTrim(text: string): string {
  return text.replace(RUST_TRIM, "");
}

/**
 * Reads a lottery result as its source says: the last `digits` digits among those it carries;
 * any other character only separates them. Throws UnreadableResultError where fair.rs returns
 * NotANumber: more than 60 characters, fewer digits than `digits`, or more than a u64 holds.
 */
export function readLottery(result: string, digits: number): { reading: Reading; step: Extract<FairStep, { step: "digits" }> } {
  const trimmed = rustTrim(result);
  const all = trimmed.replace(/[^0-9]/g, "");
  // Spread counts code points, as Rust's chars().count(): an emoji is one character, not two.
  if ([...trimmed].length > 60 || digits === 0 || all.length < digits) throw new UnreadableResultError(result);
  const used = all.slice(all.length - digits);
  const value = BigInt(used);
  if (value > U64_MAX) throw new UnreadableResultError(result);
  return { reading: { kind: "decimal", value, digits }, step: { step: "digits", result: trimmed, digits, used } };
}

/** A beacon round's randomness as a reading, with its step. Throws RangeError unless it is 32 bytes, the range 2^256 being theirs. */
export function readBeacon(round: number, randomness: Uint8Array): { reading: Reading; step: Extract<FairStep, { step: "beaconRandomness" }> } {
  if (randomness.length !== BEACON_BYTES) throw new RangeError(`A round's randomness is ${BEACON_BYTES} bytes, not ${randomness.length}`);
  return { reading: { kind: "beacon", randomness }, step: { step: "beaconRandomness", round, randomnessHex: toHex(randomness) } };
}

/**
 * `value mod m` when the value lies in a complete round of `m` below its range, so that every
 * remainder is reached by exactly ⌊range / m⌋ values; null in the incomplete last round.
 */
export function uniformBelow(reading: Reading, m: number): number | null {
  if (m === 0) return null;
  const modulus = BigInt(m);
  const [value, range] =
    reading.kind === "decimal"
      ? [reading.value, 10n ** BigInt(Math.min(reading.digits, MAX_SOURCE_DIGITS))]
      : [BigInt(`0x${toHex(reading.randomness)}`), BEACON_RANGE];
  return value < range - (range % modulus) ? Number(value % modulus) : null;
}

/** The sold numbers of a frozen ledger and those that won the raffle's earlier prizes. */
export type Pool = {
  sold: ReadonlySet<number>;
  won: ReadonlySet<number>;
  /** Sold and not yet won, in increasing order. */
  inPlay: readonly number[];
};

/** The pool of a ledger's `sold` numbers once `won` have won earlier prizes. */
export function poolOf(sold: ReadonlySet<number>, won: ReadonlySet<number>): Pool {
  return { sold, won, inPlay: [...sold].filter((n) => !won.has(n)).sort((a, b) => a - b) };
}

/** What one source's result decided for a prize. */
export type Decision =
  | { kind: "winner"; number: number }
  /** The result names no number in play: the prize goes to the next source of its chain. */
  | { kind: "nextSource" }
  /** Nothing is left in play: no source can give this prize a winner. */
  | { kind: "noWinner" };

/** The number a `rifa-number-v2` reading names in a raffle of `maxTickets`, if it names one of the raffle's numbers. */
export function namedNumber(reading: Reading, maxTickets: number): number | null {
  if (reading.kind === "beacon") {
    const index = uniformBelow(reading, maxTickets);
    return index === null ? null : index + 1;
  }
  const number = reading.value % 10n ** BigInt(Math.min(digitsUsed(maxTickets), MAX_SOURCE_DIGITS));
  return number >= 1n && number <= BigInt(maxTickets) ? Number(number) : null;
}

/** The winner's place among `inPlay` numbers for a `rifa-among-sold-v2` reading. */
export function placeAmong(reading: Reading, inPlay: number): number | null {
  return uniformBelow(reading, inPlay);
}

/**
 * Applies `rule` to one source's reading, with the steps that say why (the reading's own step is
 * the caller's). `rifa-rule-v1` reads as `rifa-number-v2` here, as in fair.rs; its raffles are
 * settled by applyRule. Async because a round in its incomplete last round is rehashed.
 */
export async function decide(rule: Rule, reading: Reading, maxTickets: number, pool: Pool): Promise<{ decision: Decision; steps: FairStep[] }> {
  if (pool.inPlay.length === 0) return { decision: { kind: "noWinner" }, steps: [{ step: "noWinner" }] };
  if (reading.kind === "beacon") return amongSoldBeacon(reading.randomness, pool);
  if (rule === "rifa-among-sold-v2") return amongSold(reading, pool);
  const number = namedNumber(reading, maxTickets);
  if (number === null) {
    const width = Math.min(digitsUsed(maxTickets), reading.digits, MAX_SOURCE_DIGITS);
    const outside = reading.value % 10n ** BigInt(width);
    // Ten digits may exceed a u32: Rust then records its maximum.
    const step: FairStep = { step: "outsideRaffle", number: outside > BigInt(U32_MAX) ? U32_MAX : Number(outside), maxTickets };
    return { decision: { kind: "nextSource" }, steps: [step, { step: "nextSource" }] };
  }
  const steps: FairStep[] = [{ step: "names", number }];
  if (pool.sold.has(number) && !pool.won.has(number)) {
    steps.push({ step: "wins", number });
    return { decision: { kind: "winner", number }, steps };
  }
  steps.push(pool.won.has(number) ? { step: "alreadyWonNextSource", number } : { step: "notSoldNextSource", number }, { step: "nextSource" });
  return { decision: { kind: "nextSource" }, steps };
}

/** The winner at `place` among the numbers in play, with its steps after `inPlay`. */
function winnerAt(place: number, pool: Pool, steps: FairStep[]): { decision: Decision; steps: FairStep[] } {
  const count = pool.inPlay.length;
  const number = pool.inPlay[place] as number;
  steps.push({ step: "place", remainder: place, count, number }, { step: "wins", number });
  return { decision: { kind: "winner", number }, steps };
}

/** The winner among the numbers in play named by a lottery reading, or the next source in the incomplete last round. */
function amongSold(reading: Reading, pool: Pool): { decision: Decision; steps: FairStep[] } {
  const count = pool.inPlay.length;
  const steps: FairStep[] = [{ step: "inPlay", count }];
  const place = placeAmong(reading, count);
  if (place !== null) return winnerAt(place, pool, steps);
  steps.push({ step: "incompleteRound", count }, { step: "nextSource" });
  return { decision: { kind: "nextSource" }, steps };
}

/** A round's randomness among the numbers in play: in the incomplete last round it is replaced by its SHA-256 until it is not. */
async function amongSoldBeacon(randomness: Uint8Array, pool: Pool): Promise<{ decision: Decision; steps: FairStep[] }> {
  const count = pool.inPlay.length;
  const steps: FairStep[] = [{ step: "inPlay", count }];
  let current = randomness;
  for (;;) {
    const place = placeAmong({ kind: "beacon", randomness: current }, count);
    if (place !== null) return winnerAt(place, pool, steps);
    // A copy: WebCrypto wants bytes backed by an ArrayBuffer.
    current = await sha256(new Uint8Array(current));
    steps.push({ step: "incompleteRound", count }, { step: "rehashed", randomnessHex: toHex(current) });
  }
}

/** What one source of a prize's chain gave. */
export type SourceState =
  | { kind: "recorded"; input: DrawInput }
  /** No result was recorded by `deadline` (RFC 3339, UTC, whole seconds, "Z", as the record writes it): the next source decides. */
  | { kind: "lapsed"; deadline: string }
  | { kind: "awaited" };

/** One link of a prize's chain: what it gave, and how many of a lottery result's last digits are read (a round's randomness is read whole). */
export type ChainLink = { digits: number; state: SourceState };

/** A step of a settlement: the fair rules' steps, or the first rule's for a `rifa-rule-v1` raffle (all the API's DrawStep). */
export type SettlementStep = DrawStep;

/** Where a prize stands. */
export type Settlement =
  /** Source `source` decided: `winner` (null when no number was left in play); `drawn` is the number the result named (the winner under the fair rules, 0 without one). */
  | { kind: "decided"; source: number; drawn: number; winner: number | null; steps: SettlementStep[] }
  /** Source `source` is awaited; `steps` say why the earlier ones passed. */
  | { kind: "awaiting"; source: number; steps: SettlementStep[] };

/** A prize as settlement sees it: already decided with its winner, or still open with its chain. */
export type PrizeProgress = { kind: "decided"; winner: number | null } | { kind: "open"; chain: readonly ChainLink[] };

/**
 * Settles one prize of a raffle of `maxTickets` numbers under `rule` (settle.rs settle_prize):
 * the chain is walked in order until a source decides or is awaited. Throws
 * UnreadableResultError when a recorded lottery result cannot be read as its source is.
 */
export async function settlePrize(
  rule: Rule,
  maxTickets: number,
  sold: ReadonlySet<number>,
  won: ReadonlySet<number>,
  chain: readonly ChainLink[],
): Promise<Settlement> {
  if (rule === "rifa-rule-v1") return settleUpward(maxTickets, sold, won, chain);
  const pool = poolOf(sold, won);
  const steps: SettlementStep[] = [];
  for (const [source, link] of chain.entries()) {
    const { state } = link;
    if (state.kind === "awaited") return { kind: "awaiting", source, steps };
    if (state.kind === "lapsed") {
      steps.push({ step: "sourceLapsed", source, deadline: state.deadline });
      continue;
    }
    const { reading, step } =
      state.input.kind === "lottery" ? readLottery(state.input.result, link.digits) : readBeacon(state.input.round, state.input.randomness);
    steps.push(step);
    const { decision, steps: decided } = await decide(rule, reading, maxTickets, pool);
    steps.push(...decided);
    if (decision.kind === "winner") return { kind: "decided", source, drawn: decision.number, winner: decision.number, steps };
    if (decision.kind === "noWinner") return { kind: "decided", source, drawn: 0, winner: null, steps };
  }
  // Every chain ends in a round, which always decides; a chain without one has nothing left.
  steps.push({ step: "noWinner" });
  return { kind: "decided", source: Math.max(chain.length - 1, 0), drawn: 0, winner: null, steps };
}

/** `rifa-rule-v1`: the first source's result, read upward; it has no chain. */
function settleUpward(maxTickets: number, sold: ReadonlySet<number>, won: ReadonlySet<number>, chain: readonly ChainLink[]): Settlement {
  const first = chain[0]?.state;
  if (first?.kind !== "recorded") return { kind: "awaiting", source: 0, steps: [] };
  const { drawn, winner, steps } = applyRule(first.input, maxTickets, sold, won);
  return { kind: "decided", source: 0, drawn, winner, steps };
}

/** A recorded result of the prize at `index` (in the list settled) that its source cannot be read from: settle_in_order's error. */
export class UnreadablePrizeError extends Error {
  readonly code = "notANumber";
  constructor(
    readonly index: number,
    readonly error: UnreadableResultError,
  ) {
    super(`Prize ${index}: ${error.message}`, { cause: error });
    this.name = "UnreadablePrizeError";
  }
}

/**
 * Settles the open prizes in order, each knowing the winners before it, and stops after the first
 * prize still awaiting a source: the later ones cannot know who is in play (settle.rs
 * settle_in_order). Returns each open prize's index with its settlement; throws
 * UnreadablePrizeError naming the prize whose recorded result cannot be read.
 */
export async function settleInOrder(
  rule: Rule,
  maxTickets: number,
  sold: ReadonlySet<number>,
  prizes: readonly PrizeProgress[],
): Promise<Array<{ index: number; settlement: Settlement }>> {
  const won = new Set<number>();
  const settled: Array<{ index: number; settlement: Settlement }> = [];
  for (const [index, prize] of prizes.entries()) {
    if (prize.kind === "decided") {
      if (prize.winner !== null) won.add(prize.winner);
      continue;
    }
    let settlement: Settlement;
    try {
      settlement = await settlePrize(rule, maxTickets, sold, won, prize.chain);
    } catch (error) {
      if (error instanceof UnreadableResultError) throw new UnreadablePrizeError(index, error);
      throw error;
    }
    settled.push({ index, settlement });
    if (settlement.kind === "awaiting") break;
    if (settlement.winner !== null) won.add(settlement.winner);
  }
  return settled;
}
