import type { DrawStep, PrizeResult, PrizeSource, PublishedLedger } from "@/lib/api/types";
import { chainOf, digitsRead, recordInstant, sourceDeadline, UnreadableSourceError } from "./chain";
import { parseRule, settlePrize, type ChainLink, type Rule, type Settlement } from "./fair";

/**
 * The verifiable draw checked in the browser (decision 0020): the same bytes as the Rust
 * reference (crates/domain/src/draw/{ledger,rule,verify}.rs; the fair rules of issue 32 in
 * fair.ts, each prize's chain in chain.ts), hashed with WebCrypto, so a buyer
 * needs nothing from the operator but the published ledger. Hashes are async (WebCrypto has no
 * synchronous digest); the tree of a 99,999-number raffle is hashed in batches.
 */

/** A SHA-256 digest. Backed by an ArrayBuffer, as WebCrypto wants its input. */
export type Hash = Uint8Array<ArrayBuffer>;

/** One sold number of the frozen ledger and the tag of the purchase holding it. */
export type LedgerEntry = { number: number; tag: Uint8Array };

const HASH_BYTES = 32;
/** What a purchase's tag is computed under (ledger.rs TAG_CONTEXT). */
const TAG_CONTEXT = new TextEncoder().encode("rifa-ledger-v1");
/** Digests requested at once: enough to keep WebCrypto busy, few enough not to hold 200k promises. */
const BATCH = 4096;
/** The largest ledger number and raffle size: the Rust side keeps them in a u32. */
const U32_MAX = 0xffff_ffff;

// Hex by table, both ways: a 99,999-entry ledger has that many tags to decode.
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;
  HEX_VALUE["0123456789ABCDEF".charCodeAt(i)] = i;
}
const HEX_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Lower-case hexadecimal, as hashes are published. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX_BYTE[byte];
  return out;
}

/** Decodes `byteCount` bytes of hex from `text` into `target` at `offset`; false on any non-hex character. */
function decodeHexInto(text: string, byteCount: number, target: Uint8Array, offset: number): boolean {
  for (let i = 0; i < byteCount; i++) {
    const high = HEX_VALUE[text.charCodeAt(2 * i)] ?? -1;
    const low = HEX_VALUE[text.charCodeAt(2 * i + 1)] ?? -1;
    if (high < 0 || low < 0) return false;
    target[offset + i] = (high << 4) | low;
  }
  return true;
}

/** The bytes of a hex string (either case); null when it is not one. */
export function fromHex(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 2 !== 0) return null;
  const bytes = new Uint8Array(text.length / 2);
  return decodeHexInto(text, bytes.length, bytes, 0) ? bytes : null;
}

/** The bytes of a hex SHA-256 digest, surrounding spaces allowed (ledger.rs hash_from_hex); null when it is not one. */
export function hashFromHex(text: string): Hash | null {
  const trimmed = rustTrim(text);
  return trimmed.length === 2 * HASH_BYTES ? fromHex(trimmed) : null;
}

/** Byte-wise equality of two digests. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Rust's `str::trim` (Unicode White_Space), which differs from JavaScript's `trim` in U+0085
 * (trimmed by Rust only) and U+FEFF (by JavaScript only): a reference or result must be read as
 * the server read it.
 */
const RUST_WHITESPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const RUST_TRIM = new RegExp(`^[${RUST_WHITESPACE}]+|[${RUST_WHITESPACE}]+$`, "g");
function rustTrim(text: string): string {
  return text.replace(RUST_TRIM, "");
}

/** Rust's `to_ascii_uppercase`: only a–z change (JavaScript's would also change "ß", "é"…). */
function asciiUppercase(text: string): string {
  return text.replace(/[a-z]+/g, (run) => run.toUpperCase());
}

export async function sha256(data: Uint8Array<ArrayBuffer>): Promise<Hash> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/** The digests of `count` inputs of `width` bytes laid end to end, end to end in the result. */
async function digestAll(inputs: Uint8Array<ArrayBuffer>, width: number, count: number): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(count * HASH_BYTES);
  for (let start = 0; start < count; start += BATCH) {
    const end = Math.min(count, start + BATCH);
    const pending: Promise<ArrayBuffer>[] = [];
    for (let i = start; i < end; i++) pending.push(crypto.subtle.digest("SHA-256", inputs.subarray(i * width, (i + 1) * width)));
    const digests = await Promise.all(pending);
    digests.forEach((digest, j) => out.set(new Uint8Array(digest), (start + j) * HASH_BYTES));
  }
  return out;
}

function concat(...parts: ArrayLike<number>[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An invalid published file: what the Rust command would refuse to parse. */
export class LedgerFormatError extends Error {
  constructor(what: string) {
    super(`The published ledger is not readable: ${what}`);
    this.name = "LedgerFormatError";
  }
}

/**
 * The tag standing for a purchase: SHA-256("rifa-ledger-v1" ‖ 0x00 ‖ salt ‖ REFERENCE), the
 * reference trimmed and in upper case.
 */
export async function purchaseTag(saltHex: string, reference: string): Promise<Hash> {
  const salt = fromHex(saltHex);
  if (!salt) throw new LedgerFormatError("salt");
  return sha256(concat(TAG_CONTEXT, [0], salt, new TextEncoder().encode(asciiUppercase(rustTrim(reference)))));
}

/** Writes the head of a leaf's input, 0x00 ‖ number as 4 bytes big-endian, at `offset`; the tag follows it. */
function writeLeafInput(target: Uint8Array, offset: number, number: number) {
  target[offset] = 0x00;
  // A Uint8Array keeps the low 8 bits of what it is given.
  target[offset + 1] = number >>> 24;
  target[offset + 2] = number >>> 16;
  target[offset + 3] = number >>> 8;
  target[offset + 4] = number;
}
const LEAF_INPUT = 1 + 4 + HASH_BYTES;
const NODE_INPUT = 1 + 2 * HASH_BYTES;

/** The leaf of an entry: SHA-256(0x00 ‖ number as 4 bytes big-endian ‖ tag). */
export function leafHash(number: number, tag: Uint8Array): Promise<Hash> {
  const input = new Uint8Array(LEAF_INPUT);
  writeLeafInput(input, 0, number);
  input.set(tag, 5);
  return sha256(input);
}

/** An inner node: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Promise<Hash> {
  return sha256(concat([0x01], left, right));
}

/**
 * A ledger's tree (RFC 6962 §2.1), built bottom-up as ledger.rs builds it: pairs are hashed left
 * to right and an unpaired last node moves up unchanged. Each level is one buffer of digests.
 */
export class MerkleTree {
  private constructor(
    private readonly levels: Uint8Array<ArrayBuffer>[],
    /** The root; SHA-256 of nothing for an empty ledger. */
    readonly root: Hash,
  ) {}

  /** The tree over leaves whose inputs (0x00 ‖ number ‖ tag) lie end to end in `leafInputs`. */
  static async overLeafInputs(leafInputs: Uint8Array<ArrayBuffer>, size: number): Promise<MerkleTree> {
    const levels = [await digestAll(leafInputs, LEAF_INPUT, size)];
    for (let count = size; count > 1; count = Math.ceil(count / 2)) {
      const below = levels[levels.length - 1] as Uint8Array<ArrayBuffer>;
      const pairs = Math.floor(count / 2);
      const inputs = new Uint8Array(pairs * NODE_INPUT);
      for (let pair = 0; pair < pairs; pair++) {
        inputs[pair * NODE_INPUT] = 0x01;
        inputs.set(below.subarray(2 * pair * HASH_BYTES, (2 * pair + 2) * HASH_BYTES), pair * NODE_INPUT + 1);
      }
      const above = new Uint8Array(Math.ceil(count / 2) * HASH_BYTES);
      above.set(await digestAll(inputs, NODE_INPUT, pairs));
      if (count % 2 === 1) above.set(below.subarray((count - 1) * HASH_BYTES, count * HASH_BYTES), pairs * HASH_BYTES);
      levels.push(above);
    }
    const top = levels[levels.length - 1] as Uint8Array<ArrayBuffer>;
    const root = size === 0 ? await sha256(new Uint8Array(0)) : top.slice(0, HASH_BYTES);
    return new MerkleTree(levels, root);
  }

  /** The tree over `entries` in the order given (the ledger sorts them by number). */
  static over(entries: readonly LedgerEntry[]): Promise<MerkleTree> {
    const inputs = new Uint8Array(entries.length * LEAF_INPUT);
    entries.forEach((entry, i) => {
      writeLeafInput(inputs, i * LEAF_INPUT, entry.number);
      inputs.set(entry.tag, i * LEAF_INPUT + 5);
    });
    return MerkleTree.overLeafInputs(inputs, entries.length);
  }

  get size(): number {
    return (this.levels[0]?.length ?? 0) / HASH_BYTES;
  }

  /** The leaf hash at `index`. */
  leaf(index: number): Hash {
    return (this.levels[0] as Uint8Array<ArrayBuffer>).slice(index * HASH_BYTES, (index + 1) * HASH_BYTES);
  }

  /** The sibling hashes from the entry at `index` up to the root, nearest first; null past the end. */
  inclusionProof(index: number): Hash[] | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) return null;
    const proof: Hash[] = [];
    let at = index;
    for (const level of this.levels.slice(0, -1)) {
      const sibling = at % 2 === 0 ? at + 1 : at - 1;
      if ((sibling + 1) * HASH_BYTES <= level.length) proof.push(level.slice(sibling * HASH_BYTES, (sibling + 1) * HASH_BYTES));
      at = Math.floor(at / 2);
    }
    return proof;
  }
}

/** The root of a ledger's entries in the order given. */
export async function merkleRoot(entries: readonly LedgerEntry[]): Promise<Hash> {
  return (await MerkleTree.over(entries)).root;
}

/**
 * Whether `proof` shows the leaf `leaf` at `index` in a tree of `size` leaves with root `root`
 * (RFC 9162 §2.1.3.2; ledger.rs verify_inclusion). Halving by division, not shifts: a shift
 * would wrap at 2^31.
 */
export async function verifyInclusion(leaf: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): Promise<boolean> {
  if (index >= size) return false;
  let position = index;
  let last = size - 1;
  let hash: Uint8Array = leaf;
  const half = (n: number) => Math.floor(n / 2);
  for (const sibling of proof) {
    if (last === 0) return false;
    if (position % 2 === 1 || position === last) {
      hash = await nodeHash(sibling, hash);
      if (position % 2 === 0) {
        while (position % 2 === 0 && position !== 0) {
          position = half(position);
          last = half(last);
        }
      }
    } else {
      hash = await nodeHash(hash, sibling);
    }
    position = half(position);
    last = half(last);
  }
  return last === 0 && sameBytes(hash, root);
}

// ---------------------------------------------------------------------------------------------
// The published rule (rule.rs).

/** What the rule is given: a lottery's result as published, or a beacon round's randomness. */
export type DrawInput = { kind: "lottery"; result: string } | { kind: "beacon"; round: number; randomness: Uint8Array };

export type DrawOutcome = {
  /** The number the result names, before looking at what was sold. */
  drawn: number;
  winner: number | null;
  steps: DrawStep[];
};

/**
 * A lottery result the rule cannot read: no digit, or a character other than digits, spaces and
 * `-` `.` `/` (rule.rs `FieldError::NotANumber`, whose message key `code` is).
 */
export class UnreadableResultError extends Error {
  readonly code = "notANumber";
  constructor(readonly result: string) {
    super(`Not a lottery result: ${JSON.stringify(result)}`);
    this.name = "UnreadableResultError";
  }
}

/** How many digits of a result a raffle of `maxTickets` numbers uses: 4 up to 9,999, 5 up to 99,999. */
export function digitsUsed(maxTickets: number): number {
  return String(Math.max(maxTickets, 1)).length;
}

/** The number a lottery result names, with its step. */
export function numberFromLottery(result: string, maxTickets: number): { number: number; step: Extract<DrawStep, { step: "lastDigits" }> } {
  const trimmed = rustTrim(result);
  if (!/^[0-9 ./-]+$/.test(trimmed)) throw new UnreadableResultError(result);
  const all = trimmed.replace(/[^0-9]/g, "");
  if (!all) throw new UnreadableResultError(result);
  const digits = digitsUsed(maxTickets);
  const used = all.length >= digits ? all.slice(-digits) : all.padStart(digits, "0");
  const number = Number(used);
  // Rust parses into a u32: ten digits above its maximum do not parse.
  if (number > U32_MAX) throw new UnreadableResultError(result);
  return { number, step: { step: "lastDigits", result: trimmed, digits, used, number } };
}

/** The number a beacon's randomness names: its first 8 bytes, big-endian, mod size, + 1. */
export function numberFromBeacon(round: number, randomness: Uint8Array, maxTickets: number): { number: number; step: Extract<DrawStep, { step: "beacon" }> } {
  const first = new DataView(randomness.buffer, randomness.byteOffset, 8).getBigUint64(0);
  const number = Number(first % BigInt(Math.max(maxTickets, 1))) + 1;
  return { number, step: { step: "beacon", round, randomnessHex: toHex(randomness), number } };
}

/**
 * Applies the rule to `input` for a raffle of `maxTickets` numbers whose frozen ledger holds
 * `sold`, where `alreadyWon` are the winners of the raffle's earlier prizes. Throws
 * UnreadableResultError as rule.rs returns NotANumber.
 */
export function applyRule(input: DrawInput, maxTickets: number, sold: ReadonlySet<number>, alreadyWon: ReadonlySet<number>): DrawOutcome {
  const { number: drawn, step: first } =
    input.kind === "lottery" ? numberFromLottery(input.result, maxTickets) : numberFromBeacon(input.round, input.randomness, maxTickets);
  const steps: DrawStep[] = [first];
  const inRaffle = drawn >= 1 && drawn <= maxTickets;
  const canWin = (n: number) => !alreadyWon.has(n);
  if (inRaffle && sold.has(drawn) && canWin(drawn)) {
    steps.push({ step: "wins", number: drawn });
    return { drawn, winner: drawn, steps };
  }
  const ascending = [...sold].sort((a, b) => a - b);
  const upward = ascending.find((n) => n > drawn && canWin(n));
  const winner = upward ?? ascending.find(canWin);
  if (winner === undefined) {
    steps.push({ step: "noWinner" });
    return { drawn, winner: null, steps };
  }
  steps.push(
    !inRaffle
      ? { step: "notInRaffle", number: drawn, maxTickets }
      : sold.has(drawn)
        ? { step: "alreadyWon", number: drawn, next: winner }
        : { step: "notSold", number: drawn, next: winner },
  );
  if (upward === undefined) steps.push({ step: "wrappedAround" });
  steps.push({ step: "wins", number: winner });
  return { drawn, winner, steps };
}

/**
 * A beacon result's randomness when it is SHA-256 of its signature's bytes, as drand derives it;
 * null otherwise. Whether the signature is drand's own (a BLS signature of the round) the server
 * checked when it was recorded and `rifa-api verify-draw` checks offline; the page links drand's
 * record of the round to compare with.
 */
export async function verifiedRandomness(result: Extract<PrizeResult, { kind: "beacon" }>): Promise<Hash | null> {
  const signature = fromHex(result.signature);
  const randomness = hashFromHex(result.randomness);
  return signature && randomness && sameBytes(await sha256(signature), randomness) ? randomness : null;
}

// ---------------------------------------------------------------------------------------------
// Checking a published ledger (verify.rs).

/**
 * What a check found, in order (verify.rs `Finding`, and three checks of the JSON's own fields).
 * A prize's findings about its beacon results (each result's round against the round its chain
 * announced at that place, its randomness against its signature) come before its winner's.
 */
export type Finding =
  /** The entries are not in increasing order of number (or repeat one) at `index`. */
  | { kind: "notSorted"; index: number }
  /** A number the raffle does not have. */
  | { kind: "notInRaffle"; number: number }
  /** The published size is not the number of entries (the commitment is the root and the size). */
  | { kind: "sizeDiffers"; published: number; counted: number }
  | { kind: "rootMatches"; size: number }
  | { kind: "rootDiffers"; computed: string }
  /** The prize's result gives the published winner, by these steps. */
  | { kind: "winnerConfirmed"; position: number; winner: number | null; steps: DrawStep[] }
  | { kind: "winnerDiffers"; position: number; published: number | null; computed: number | null; steps: DrawStep[] }
  /** The result could not be read as the rule reads results. */
  | { kind: "resultUnreadable"; position: number }
  /** A beacon result from another round than the one the prize's chain announced at that place (0 when it announced a lottery there). */
  | { kind: "roundDiffers"; position: number; announced: number; used: number }
  /** A beacon result whose randomness is not SHA-256 of its signature. */
  | { kind: "randomnessDiffers"; position: number }
  | { kind: "notDrawn"; position: number };

/** Whether a finding means the published draw does not hold. */
export function isProblem(finding: Finding): boolean {
  return !["rootMatches", "winnerConfirmed", "notDrawn"].includes(finding.kind);
}

/** The file formats read: the first (`rifa-rule-v1`, one result a prize) and the fair rules' (the rule and each chain source's result). */
const FIRST_FORMAT = "rifa-draw-v1";
const FORMAT = "rifa-draw-v2";

/** What source `source` of a prize's chain gave; a round comes with its randomness checked against its signature. */
type ChainResult = { source: number; result: PrizeResult };

/** A prize of the file as the check reads it (verify.rs `PublishedPrize`). */
type OpenedPrize = { position: number; source: PrizeSource; results: ChainResult[]; winner: number | null };

/** A published ledger parsed and its tree built: what both checks need, built once per file (its prizes are read at each check). */
type OpenedLedger = { root: Hash; numbers: number[]; leafInputs: Uint8Array<ArrayBuffer>; tree: MerkleTree };

const opened = new WeakMap<PublishedLedger, Promise<OpenedLedger>>();

function isU32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= U32_MAX;
}

/** A beacon result whose hex does not decode is no file the Rust command reads (dto/draw.rs `published_result`). */
function checkedResult(result: unknown, where: string): PrizeResult {
  const r = result as PrizeResult | null;
  if (!r || typeof r !== "object") throw new LedgerFormatError(where);
  if (r.kind === "lottery") {
    if (typeof r.result !== "string") throw new LedgerFormatError(where);
  } else if (r.kind === "beacon") {
    if (!isSafeRound(r.round) || typeof r.randomness !== "string" || !hashFromHex(r.randomness)) throw new LedgerFormatError(`${where}.randomness`);
    if (typeof r.signature !== "string" || !fromHex(r.signature)) throw new LedgerFormatError(`${where}.signature`);
  } else {
    throw new LedgerFormatError(where);
  }
  return r;
}

function isSafeRound(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The prizes of the file, in position order, with each chain source's result (a `rifa-draw-v1` prize's one result is its source's). */
function openPrizes(published: PublishedLedger, first: boolean): OpenedPrize[] {
  return published.prizes
    .map((prize, i) => {
      const where = `prizes[${i}]`;
      if (!prize || typeof prize !== "object" || !prize.source || typeof prize.source !== "object") throw new LedgerFormatError(where);
      const results: ChainResult[] = first
        ? prize.result
          ? [{ source: 0, result: checkedResult(prize.result, `${where}.result`) }]
          : []
        : (prize.results ?? []).map((r, j) => {
            if (!r || !isU32(r.source)) throw new LedgerFormatError(`${where}.results[${j}]`);
            return { source: r.source, result: checkedResult(r.result, `${where}.results[${j}].result`) };
          });
      // The API sends null for "no winner"; the document lets the field be left out, read the same.
      return { position: prize.position, source: prize.source, results, winner: prize.winningNumber ?? null };
    })
    .sort((a, b) => a.position - b.position);
}

/** The file's rule: `rifa-rule-v1` for the first format, else the one it names. Throws LedgerFormatError for another format or an unknown rule. */
export function ledgerRule(published: PublishedLedger): Rule {
  const first = published.format === FIRST_FORMAT;
  if (!first && published.format !== FORMAT) throw new LedgerFormatError("format");
  const rule = first ? "rifa-rule-v1" : parseRule(typeof published.rule === "string" ? published.rule : "");
  if (!rule) throw new LedgerFormatError("rule");
  return rule;
}

async function open(published: PublishedLedger): Promise<OpenedLedger> {
  ledgerRule(published);
  if (!isU32(published.maxTickets)) throw new LedgerFormatError("maxTickets");
  if (!fromHex(published.salt)) throw new LedgerFormatError("salt");
  const root = hashFromHex(published.root);
  if (!root) throw new LedgerFormatError("root");
  if (!Array.isArray(published.entries)) throw new LedgerFormatError("entries");
  if (!Array.isArray(published.prizes)) throw new LedgerFormatError("prizes");
  const size = published.entries.length;
  const leafInputs = new Uint8Array(size * LEAF_INPUT);
  const numbers: number[] = new Array(size);
  published.entries.forEach((entry, i) => {
    const [number, tag] = Array.isArray(entry) ? entry : [];
    const offset = i * LEAF_INPUT;
    if (!isU32(number) || typeof tag !== "string" || tag.length !== 2 * HASH_BYTES || !decodeHexInto(tag, HASH_BYTES, leafInputs, offset + 5)) {
      throw new LedgerFormatError(`entries[${i}]`);
    }
    writeLeafInput(leafInputs, offset, number);
    numbers[i] = number;
  });
  return { root, numbers, leafInputs, tree: await MerkleTree.overLeafInputs(leafInputs, size) };
}

function openLedger(published: PublishedLedger): Promise<OpenedLedger> {
  let ledger = opened.get(published);
  if (!ledger) {
    ledger = open(published);
    opened.set(published, ledger);
  }
  return ledger;
}

/**
 * The prize's chain as the rules fix it, with what each source gave (verify.rs `links_of`): a
 * source with no result before one that has a result lapsed at its deadline (only a lottery can).
 */
function linksOf(rule: Rule, maxTickets: number, prize: OpenedPrize, position: number): { chain: PrizeSource[]; links: ChainLink[] } {
  const unreadable = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof UnreadableSourceError) throw new LedgerFormatError(`the source of prize ${position}`);
      throw error;
    }
  };
  const chain = unreadable(() => chainOf(rule, prize.source));
  const lastGiven = prize.results.length ? Math.max(...prize.results.map((r) => r.source)) : null;
  const links = chain.map((source, index): ChainLink => {
    const given = prize.results.find((r) => r.source === index);
    const deadline = given || lastGiven === null || lastGiven <= index ? null : unreadable(() => sourceDeadline(source));
    const state: ChainLink["state"] = given
      ? {
          kind: "recorded",
          input:
            given.result.kind === "lottery"
              ? { kind: "lottery", result: given.result.result }
              : { kind: "beacon", round: given.result.round, randomness: hashFromHex(given.result.randomness) as Hash },
        }
      : deadline !== null
        ? { kind: "lapsed", deadline: recordInstant(deadline) }
        : { kind: "awaited" };
    return { digits: digitsRead(source, rule, maxTickets), state };
  });
  return { chain, links };
}

/** A round's result is the round its chain announced at that place, and its randomness SHA-256 of its signature (verify.rs `beacon_findings`; drand's own signature the server and `rifa-api verify-draw` check). */
async function beaconFindings(position: number, announced: PrizeSource | undefined, result: Extract<PrizeResult, { kind: "beacon" }>): Promise<Finding[]> {
  const findings: Finding[] = [];
  const announcedRound = announced?.kind === "beacon" ? announced.round : 0;
  if (announcedRound !== result.round) findings.push({ kind: "roundDiffers", position, announced: announcedRound, used: result.round });
  if (!(await verifiedRandomness(result))) findings.push({ kind: "randomnessDiffers", position });
  return findings;
}

/**
 * Recomputes the root from the entries and every prize's winner from its chain's results under
 * the file's rule (verify.rs `check`), prizes in position order, each drawn knowing the earlier
 * prizes' winners as computed here. Throws LedgerFormatError when the file is not a readable
 * ledger.
 */
export async function checkLedger(published: PublishedLedger): Promise<Finding[]> {
  const { root, numbers, tree } = await openLedger(published);
  const rule = ledgerRule(published);
  const prizes = openPrizes(published, rule === "rifa-rule-v1" && published.format === FIRST_FORMAT);
  const findings: Finding[] = [];
  const unsorted = numbers.findIndex((n, i) => i > 0 && (numbers[i - 1] as number) >= n);
  if (unsorted > 0) findings.push({ kind: "notSorted", index: unsorted });
  for (const number of numbers) {
    if (number < 1 || number > published.maxTickets) findings.push({ kind: "notInRaffle", number });
  }
  if (published.size !== numbers.length) findings.push({ kind: "sizeDiffers", published: published.size, counted: numbers.length });
  findings.push(sameBytes(tree.root, root) ? { kind: "rootMatches", size: numbers.length } : { kind: "rootDiffers", computed: toHex(tree.root) });

  const sold = new Set(numbers);
  const won = new Set<number>();
  // Once a prize waits for a source (or its result cannot be read), the ones after it wait too:
  // nobody knows who is in play for them (verify.rs `check`, settle.rs settle_in_order).
  let waiting = false;
  for (const prize of prizes) {
    const { position, winner: publishedWinner } = prize;
    const { chain, links } = linksOf(rule, published.maxTickets, prize, position);
    for (const { source, result } of prize.results) {
      if (result.kind === "beacon") findings.push(...(await beaconFindings(position, chain[source], result)));
    }
    let settlement: Settlement;
    try {
      settlement = waiting ? { kind: "awaiting", source: 0, steps: [] } : await settlePrize(rule, published.maxTickets, sold, won, links);
    } catch (error) {
      if (!(error instanceof UnreadableResultError)) throw error;
      waiting = true;
      findings.push({ kind: "resultUnreadable", position });
      continue;
    }
    if (settlement.kind === "awaiting") {
      waiting = true;
      findings.push(
        publishedWinner === null
          ? { kind: "notDrawn", position }
          : { kind: "winnerDiffers", position, published: publishedWinner, computed: null, steps: settlement.steps },
      );
      continue;
    }
    const { winner, steps } = settlement;
    if (winner !== null) won.add(winner);
    findings.push(
      winner === publishedWinner
        ? { kind: "winnerConfirmed", position, winner, steps }
        : { kind: "winnerDiffers", position, published: publishedWinner, computed: winner, steps },
    );
  }
  return findings;
}

/**
 * The numbers of the purchase with `reference`, each with whether its inclusion proof leads to
 * the published root (a buyer's own check, from their reference alone).
 */
export async function numbersOf(published: PublishedLedger, reference: string): Promise<Array<{ number: number; proven: boolean }>> {
  const [{ root, numbers, leafInputs, tree }, tag] = await Promise.all([openLedger(published), purchaseTag(published.salt, reference)]);
  const mine = numbers.flatMap((number, index) =>
    sameBytes(leafInputs.subarray(index * LEAF_INPUT + 5, (index + 1) * LEAF_INPUT), tag) ? [{ number, index }] : [],
  );
  return Promise.all(
    mine.map(async ({ number, index }) => {
      const proof = tree.inclusionProof(index);
      return { number, proven: !!proof && (await verifyInclusion(tree.leaf(index), index, numbers.length, proof, root)) };
    }),
  );
}
