// The fair rules in the browser against the Rust reference (crates/domain/src/draw/{fair,settle}.rs):
// its tests ported, the exhaustive fairness walk over sizes 1 to 120 instead of 1,000, and the
// rehash checked with node:crypto's SHA-256 rather than the module's WebCrypto.
import { describe, expect, it } from "vitest";
import {
  decide,
  namedNumber,
  parseRule,
  placeAmong,
  poolOf,
  readBeacon,
  readLottery,
  settleInOrder,
  settlePrize,
  uniformBelow,
  UnreadablePrizeError,
  type ChainLink,
  type FairStep,
  type Pool,
  type Reading,
  type Rule,
} from "@/lib/draw/fair";
import { applyRule, digitsUsed, toHex, UnreadableResultError } from "@/lib/draw/verify";
import { sha } from "./draw-fixtures";

/** fair.rs Rule::OFFERED: the rules a new raffle may choose. */
const OFFERED: Rule[] = ["rifa-among-sold-v2", "rifa-number-v2"];

const decimal = (value: number | bigint, digits: number): Reading => ({ kind: "decimal", value: BigInt(value), digits });
const beacon = (randomness: Uint8Array): Reading => ({ kind: "beacon", randomness });
const filled = (byte: number) => new Uint8Array(32).fill(byte);
/** 32 bytes, zero but for the last. */
const endingIn = (byte: number) => {
  const bytes = new Uint8Array(32);
  bytes[31] = byte;
  return bytes;
};
/** settle.rs's chain links: a lottery read with `digits`, round 7 ending in `byte`, a source awaited. */
const lottery = (result: string, digits: number): ChainLink => ({ digits, state: { kind: "recorded", input: { kind: "lottery", result } } });
const round = (byte: number): ChainLink => ({ digits: 0, state: { kind: "recorded", input: { kind: "beacon", round: 7, randomness: endingIn(byte) } } });
const awaited = (): ChainLink => ({ digits: 4, state: { kind: "awaited" } });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const canWin = (pool: Pool, n: number) => pool.sold.has(n) && !pool.won.has(n);

/** The sold patterns the fairness tests walk: clustered, sparse, one, all. */
function patterns(size: number): Array<[string, Set<number>]> {
  const numbers = range(1, size);
  return [
    ["clustered", new Set(numbers.filter((n) => n <= Math.ceil(size / 3) || n > size - Math.floor(size / 10)))],
    ["sparse", new Set(numbers.filter((n) => n % 7 === 3 || n % 11 === 0))],
    ["one", new Set([Math.ceil(size / 2)])],
    ["all", new Set(numbers)],
  ];
}

/** Over every value of `digits` digits, how often each number wins under `rule`. */
function winsOverEveryValue(rule: Rule, size: number, pool: Pool, digits: number): number[] {
  const wins = new Array<number>(size + 1).fill(0);
  for (let value = 0; value < 10 ** digits; value++) {
    const reading = decimal(value, digits);
    let winner: number | null;
    if (rule === "rifa-number-v2") {
      const named = namedNumber(reading, size);
      winner = named !== null && canWin(pool, named) ? named : null;
    } else {
      const place = placeAmong(reading, pool.inPlay.length);
      winner = place === null ? null : (pool.inPlay[place] as number);
    }
    if (winner !== null) wins[winner] = (wins[winner] as number) + 1;
  }
  return wins;
}

/** The distinct win counts of the numbers in play. */
const perNumber = (pool: Pool, wins: number[]) => [...new Set(pool.inPlay.map((n) => wins[n]))];

/** fair.rs uniform_below's beacon arithmetic, in u64-sized steps, to hold the BigInt version to it. */
function rustUniformBelow(randomness: Uint8Array, m: number): number | null {
  const remainder = randomness.reduce((acc, byte) => (acc * 256 + byte) % m, 0);
  let lastRound = 1 % m;
  for (let i = 0; i < 256; i++) lastRound = (lastRound * 2) % m;
  const flipped = randomness.map((b) => ~b & 0xff);
  const highZero = flipped.subarray(0, 24).every((b) => b === 0);
  const low = new DataView(flipped.buffer, 24, 8).getBigUint64(0);
  return highZero && low < BigInt(lastRound) ? null : remainder;
}

/** A SplitMix64 stream, as fair.rs's tests: the same "random" beacon values on every run. */
function beaconValues(seed: bigint, count: number): Uint8Array[] {
  const u64 = (x: bigint) => BigInt.asUintN(64, x);
  let state = seed;
  const next = () => {
    state = u64(state + 0x9e37_79b9_7f4a_7c15n);
    let z = state;
    z = u64((z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n);
    z = u64((z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn);
    return z ^ (z >> 31n);
  };
  return Array.from({ length: count }, () => {
    const bytes = new Uint8Array(32);
    const view = new DataView(bytes.buffer);
    for (let chunk = 0; chunk < 4; chunk++) view.setBigUint64(8 * chunk, next());
    return bytes;
  });
}

describe("the fair rules", () => {
  it("give every number in play exactly as many results, and others none, for every size up to 120", () => {
    const failures: string[] = [];
    for (let size = 1; size <= 120; size++) {
      const digits = digitsUsed(size);
      for (const [name, sold] of patterns(size)) {
        // One earlier prize won by the lowest sold number, when there are two or more.
        const won = new Set(sold.size > 1 ? [Math.min(...sold)] : []);
        const pool = poolOf(sold, won);
        if (pool.inPlay.length === 0) {
          for (const rule of OFFERED) {
            if (winsOverEveryValue(rule, size, pool, digits).some((w) => w !== 0)) failures.push(`${rule} size ${size} ${name}: a winner`);
          }
          continue;
        }
        for (const rule of OFFERED) {
          for (const read of [digits, digits + 1]) {
            const wins = winsOverEveryValue(rule, size, pool, read);
            const expected = rule === "rifa-number-v2" ? 10 ** (read - digits) : Math.floor(10 ** read / pool.inPlay.length);
            const per = perNumber(pool, wins);
            if (per.length !== 1 || per[0] !== expected) failures.push(`${rule} size ${size} ${name} ${read} digits: ${per.join(", ")}`);
            if (range(1, size).some((n) => !pool.inPlay.includes(n) && wins[n] !== 0)) failures.push(`${rule} size ${size} ${name}: a loser won`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("walk every lottery result at 99,999 numbers and give each sold number the same count", () => {
    const size = 99_999;
    const sold = new Set(range(1, size).filter((n) => n % 13 === 0 || (n >= 40_000 && n < 41_000)));
    const pool = poolOf(sold, new Set());
    for (const rule of OFFERED) {
      expect(perNumber(pool, winsOverEveryValue(rule, size, pool, 5)), rule).toHaveLength(1);
    }
  });

  it("spread beacon draws at 99,999 numbers over the sold numbers as chance would", { timeout: 60_000 }, async () => {
    // 2,000 sold numbers, 400,000 draws: 200 expected wins each. Pearson's chi-square with
    // 1,999 degrees of freedom has mean 1,999 and standard deviation ~63; 2,330 is more than
    // five deviations out (p < 1e-6), so a fair rule passes and a biased one does not.
    const size = 99_999;
    const pool = poolOf(new Set(range(1, size).filter((n) => n % 50 === 7)), new Set());
    expect(pool.inPlay).toHaveLength(2_000);
    const draws = beaconValues(32n, 400_000);
    for (const rule of OFFERED) {
      const wins = new Array<number>(size + 1).fill(0);
      let nextSource = 0;
      for (const randomness of draws) {
        const { decision } = await decide(rule, beacon(randomness), size, pool);
        if (decision.kind === "winner") wins[decision.number] = (wins[decision.number] as number) + 1;
        else nextSource++;
      }
      const drawn = wins.reduce((sum, w) => sum + w, 0);
      const expected = drawn / 2_000;
      const chi = pool.inPlay.reduce((sum, n) => sum + ((wins[n] as number) - expected) ** 2 / expected, 0);
      expect(chi, rule).toBeLessThan(2_330);
      // A round is read among the sold numbers under either rule, and always decides.
      expect(nextSource, rule).toBe(0);
      expect(drawn, rule).toBe(400_000);
    }
  });

  it("pass the check the old rule fails (the issue's reproduction)", () => {
    // 300 numbers, read with 3 digits, 5 and others sold.
    const sold = new Set([5, 73, 76, 120, 199, 250]);
    const wins = new Map<number | null, number>();
    for (let value = 0; value < 1_000; value++) {
      const { winner } = applyRule({ kind: "lottery", result: String(value).padStart(3, "0") }, 300, sold, new Set());
      wins.set(winner, (wins.get(winner) ?? 0) + 1);
    }
    expect(wins.get(5), "v1 hands 0005 most results").toBeGreaterThan(700);
    const pool = poolOf(sold, new Set());
    for (const rule of OFFERED) {
      expect(perNumber(pool, winsOverEveryValue(rule, 300, pool, 3)), rule).toHaveLength(1);
    }
  });
});

describe("reading a result", () => {
  it("reads a lottery result by its source's digits, whatever else it carries", () => {
    const read = (text: string, digits: number) => readLottery(text, digits).reading;
    expect(read("Táchira 12-4073", 4)).toEqual(decimal(4_073, 4));
    expect(read("0046", 4)).toEqual(decimal(46, 4));
    expect(read("7 765 678", 5)).toEqual(decimal(65_678, 5));
    expect(() => read("46", 4), "fewer digits than the source prints").toThrow(UnreadableResultError);
    expect(() => read("Zodiaco: Leo", 3)).toThrow(UnreadableResultError);
    expect(() => read("1".repeat(61), 4)).toThrow(UnreadableResultError);
    expect(() => read("1234", 0)).toThrow(UnreadableResultError);
    expect(readLottery(" Táchira 12-4073 ", 4).step).toEqual<FairStep>({ step: "digits", result: "Táchira 12-4073", digits: 4, used: "4073" });
  });

  it("counts characters and trims spaces as Rust does, and refuses what a u64 cannot hold", () => {
    // 34 characters but 64 UTF-16 units: Rust counts characters.
    expect(readLottery(`${"🎲".repeat(30)}4073`, 4).reading).toEqual(decimal(4_073, 4));
    expect(() => readLottery(`${"🎲".repeat(57)}4073`, 4)).toThrow(UnreadableResultError);
    // Rust trims U+0085 (JavaScript's trim does not).
    expect(readLottery("\u0085 12-4073\u0085", 4).step.result).toBe("12-4073");
    expect(readLottery("18446744073709551615", 20).reading).toEqual(decimal(2n ** 64n - 1n, 20));
    expect(() => readLottery("18446744073709551616", 20)).toThrow(UnreadableResultError);
  });

  it("reads a round's randomness whole, and only 32 bytes of it", () => {
    expect(readBeacon(7, endingIn(45))).toEqual({
      reading: beacon(endingIn(45)),
      step: { step: "beaconRandomness", round: 7, randomnessHex: `${"00".repeat(31)}2d` },
    });
    expect(() => readBeacon(7, new Uint8Array(31))).toThrow(RangeError);
  });

  it("names every rule a document may name, surrounding spaces allowed", () => {
    for (const rule of ["rifa-rule-v1", "rifa-number-v2", "rifa-among-sold-v2"] as const) expect(parseRule(` ${rule}\n`)).toBe(rule);
    expect(parseRule("rifa-number-v3")).toBeNull();
  });
});

describe("a complete round", () => {
  it("sends a value in the incomplete last round to the next source", () => {
    // 2^256 mod 3 = 1: only the largest value, 2^256 − 1, is in the incomplete round.
    expect(uniformBelow(beacon(filled(0xff)), 3)).toBeNull();
    const below = filled(0xff);
    below[31] = 0xfe;
    // 2^256 − 2 = 3·k + 2 (as 2^256 ≡ 1): remainder 2.
    expect(uniformBelow(beacon(below), 3)).toBe(2);
    expect(uniformBelow(beacon(filled(0)), 7)).toBe(0);
    expect(uniformBelow(beacon(endingIn(45)), 7)).toBe(3);
    // A power of two divides 2^256: no incomplete round at all.
    expect(uniformBelow(beacon(filled(0xff)), 64)).toBe(63);
    expect(uniformBelow(decimal(999, 3), 7), "1000 = 7·142 + 6: 994–999 pass").toBeNull();
    expect(uniformBelow(decimal(993, 3), 7)).toBe(993 % 7);
    expect(uniformBelow(decimal(5, 3), 0)).toBeNull();
    // Past 18 digits the range stays 10^18: a larger value lies beyond it.
    expect(uniformBelow(decimal(10n ** 18n, 20), 7)).toBeNull();
  });

  it("agrees with fair.rs's u64 arithmetic on a round's randomness, at the top of the range too", () => {
    const top = 2n ** 256n - 1n;
    const bytesOf = (value: bigint) => Uint8Array.from(value.toString(16).padStart(64, "0").match(/../g) ?? [], (h) => parseInt(h, 16));
    for (const m of [1, 2, 3, 7, 10, 64, 1_000, 99_999, 2 ** 31 - 1, 2 ** 32 - 1]) {
      const last = Number(2n ** 256n % BigInt(m));
      const edges = [0, 1, 2, last - 1, last, last + 1].filter((k) => k >= 0).map((k) => bytesOf(top - BigInt(k)));
      for (const randomness of [...beaconValues(BigInt(m), 200), ...edges]) {
        expect(uniformBelow(beacon(randomness), m), `${m} ${toHex(randomness)}`).toBe(rustUniformBelow(randomness, m));
      }
    }
  });

  it("hashes a round in the incomplete last round again, and it still decides", async () => {
    const pool = poolOf(new Set([2, 4, 8]), new Set());
    const rehashed = sha(filled(0xff));
    const place = uniformBelow(beacon(rehashed), 3) as number;
    const number = [2, 4, 8][place] as number;
    for (const rule of OFFERED) {
      const { decision, steps } = await decide(rule, beacon(filled(0xff)), 9, pool);
      expect(decision, rule).toEqual({ kind: "winner", number });
      expect(steps, rule).toEqual<FairStep[]>([
        { step: "inPlay", count: 3 },
        { step: "incompleteRound", count: 3 },
        { step: "rehashed", randomnessHex: toHex(rehashed) },
        { step: "place", remainder: place, count: 3, number },
        { step: "wins", number },
      ]);
    }
  });
});

describe("deciding", () => {
  it("records what each rule read and decided", async () => {
    const pool = poolOf(new Set([3, 5, 9]), new Set([3]));
    // In play: 5, 9. 4073 mod 2 = 1: the second, 9.
    expect(await decide("rifa-among-sold-v2", decimal(4_073, 4), 9, pool)).toEqual({
      decision: { kind: "winner", number: 9 },
      steps: [
        { step: "inPlay", count: 2 },
        { step: "place", remainder: 1, count: 2, number: 9 },
        { step: "wins", number: 9 },
      ],
    });
    expect(await decide("rifa-number-v2", decimal(3, 4), 9, pool)).toEqual({
      decision: { kind: "nextSource" },
      steps: [{ step: "names", number: 3 }, { step: "alreadyWonNextSource", number: 3 }, { step: "nextSource" }],
    });
    const notSold = await decide("rifa-number-v2", decimal(4, 4), 9, pool);
    expect([notSold.decision, notSold.steps[1]]).toEqual([{ kind: "nextSource" }, { step: "notSoldNextSource", number: 4 }]);
    const outside = await decide("rifa-number-v2", decimal(10, 4), 9, pool);
    expect(outside.decision).toEqual({ kind: "nextSource" });
    expect(outside.steps[0], "9 numbers: one digit, 10 reads 0").toEqual<FairStep>({ step: "outsideRaffle", number: 0, maxTickets: 9 });
    expect((await decide("rifa-number-v2", decimal(5, 4), 9, pool)).decision).toEqual({ kind: "winner", number: 5 });
    const empty = poolOf(new Set([3]), new Set([3]));
    expect(await decide("rifa-among-sold-v2", decimal(1, 4), 9, empty)).toEqual({ decision: { kind: "noWinner" }, steps: [{ step: "noWinner" }] });
  });

  it("reads a round among the sold numbers under either rule", async () => {
    const pool = poolOf(new Set([46, 5_678, 9_000]), new Set());
    for (const rule of OFFERED) {
      // 45 mod 3 = 0: the lowest.
      expect((await decide(rule, beacon(endingIn(45)), 9_999, pool)).decision, rule).toEqual({ kind: "winner", number: 46 });
    }
  });

  it("writes its steps as the server's JSON, field for field", async () => {
    const pool = poolOf(new Set([3, 5, 9]), new Set([3]));
    const among = await decide("rifa-among-sold-v2", decimal(4_073, 4), 9, pool);
    expect(JSON.stringify(among.steps[1])).toBe('{"step":"place","remainder":1,"count":2,"number":9}');
    expect(JSON.stringify((await decide("rifa-number-v2", decimal(10, 4), 9, pool)).steps[0])).toBe('{"step":"outsideRaffle","number":0,"maxTickets":9}');
    expect(JSON.stringify(readLottery("12-4073", 4).step)).toBe('{"step":"digits","result":"12-4073","digits":4,"used":"4073"}');
    expect(JSON.stringify(readBeacon(7, filled(0)).step)).toBe(`{"step":"beaconRandomness","round":7,"randomnessHex":"${"00".repeat(32)}"}`);
    const rehashed = await decide("rifa-number-v2", beacon(filled(0xff)), 9, poolOf(new Set([2, 4, 8]), new Set()));
    expect(JSON.stringify(rehashed.steps[2])).toBe(`{"step":"rehashed","randomnessHex":"${toHex(sha(filled(0xff)))}"}`);
    const lapsed = await settlePrize("rifa-among-sold-v2", 9, new Set([1]), new Set(), [{ digits: 4, state: { kind: "lapsed", deadline: "2030-01-16T20:00:00Z" } }, awaited()]);
    expect(JSON.stringify(lapsed.steps)).toBe('[{"step":"sourceLapsed","source":0,"deadline":"2030-01-16T20:00:00Z"}]');
  });
});

describe("settling a prize", () => {
  it("settles at once when the result names a sold number", async () => {
    const settled = await settlePrize("rifa-number-v2", 9_999, new Set([46, 5_678]), new Set(), [lottery("12-5678", 4), awaited()]);
    expect(settled).toMatchObject({ kind: "decided", source: 0, drawn: 5_678, winner: 5_678 });
    expect(settled.steps.at(-1)).toEqual({ step: "wins", number: 5_678 });
  });

  it("waits for the round after an unsold number or a lapse, and the round decides among the sold", async () => {
    const sold = new Set([46, 5_678, 9_000]);
    const waiting = await settlePrize("rifa-number-v2", 9_999, sold, new Set(), [lottery("0047", 4), awaited()]);
    expect(waiting).toEqual({
      kind: "awaiting",
      source: 1,
      steps: [
        { step: "digits", result: "0047", digits: 4, used: "0047" },
        { step: "names", number: 47 },
        { step: "notSoldNextSource", number: 47 },
        { step: "nextSource" },
      ],
    });
    // 2 in play once 46 has won: 45 mod 2 = 1, the second of 5678 and 9000.
    const settled = await settlePrize("rifa-number-v2", 9_999, sold, new Set([46]), [lottery("0047", 4), round(45)]);
    expect(settled).toMatchObject({ kind: "decided", source: 1, drawn: 9_000, winner: 9_000 });
    const lapsed: ChainLink = { digits: 4, state: { kind: "lapsed", deadline: "2030-01-16T20:00:00Z" } };
    const afterLapse = await settlePrize("rifa-among-sold-v2", 9_999, sold, new Set(), [lapsed, round(45)]);
    // 45 mod 3 = 0: the lowest.
    expect(afterLapse).toMatchObject({ kind: "decided", source: 1, winner: 46 });
    expect(afterLapse.steps).toEqual<FairStep[]>([
      { step: "sourceLapsed", source: 0, deadline: "2030-01-16T20:00:00Z" },
      { step: "beaconRandomness", round: 7, randomnessHex: toHex(endingIn(45)) },
      { step: "inPlay", count: 3 },
      { step: "place", remainder: 0, count: 3, number: 46 },
      { step: "wins", number: 46 },
    ]);
  });

  it("gives no winner when the chain runs out without a decision", async () => {
    const settled = await settlePrize("rifa-number-v2", 9_999, new Set([46]), new Set(), [lottery("0047", 4)]);
    expect(settled).toMatchObject({ kind: "decided", source: 0, drawn: 0, winner: null });
    expect(settled.steps.slice(-2)).toEqual([{ step: "nextSource" }, { step: "noWinner" }]);
  });

  it("settles prizes in order and stops at the first still waiting", async () => {
    const sold = new Set([1, 2, 3]);
    const settled = await settleInOrder("rifa-among-sold-v2", 3, sold, [
      { kind: "decided", winner: 2 },
      // In play 1, 3: 4 mod 2 = 0 → 1.
      { kind: "open", chain: [lottery("4", 1), awaited()] },
      // Only 3 is left in play: every value lies in a complete round of one, and 3 wins.
      { kind: "open", chain: [lottery("9", 1), awaited()] },
      // Nothing is left in play for the fourth prize.
      { kind: "open", chain: [lottery("0", 1), awaited()] },
    ]);
    expect(settled.map(({ index, settlement }) => [index, settlement.kind, settlement.kind === "decided" ? settlement.winner : "waiting"])).toEqual([
      [1, "decided", 1],
      [2, "decided", 3],
      [3, "decided", null],
    ]);
    const waiting = await settleInOrder("rifa-among-sold-v2", 3, sold, [
      { kind: "open", chain: [awaited()] },
      { kind: "open", chain: [lottery("1", 1)] },
    ]);
    expect(waiting, "the second waits for the first").toEqual([{ index: 0, settlement: { kind: "awaiting", source: 0, steps: [] } }]);
  });

  it("reads only the first source upward under the first rule", async () => {
    const settled = await settlePrize("rifa-rule-v1", 9_999, new Set([10, 51]), new Set(), [lottery("0050", 4)]);
    expect(settled).toEqual({
      kind: "decided",
      source: 0,
      drawn: 50,
      winner: 51,
      steps: applyRule({ kind: "lottery", result: "0050" }, 9_999, new Set([10, 51]), new Set()).steps,
    });
    expect(await settlePrize("rifa-rule-v1", 9_999, new Set([10]), new Set(), [awaited()])).toEqual({ kind: "awaiting", source: 0, steps: [] });
  });

  it("names the prize whose result its source cannot be read from", async () => {
    const settling = settleInOrder("rifa-among-sold-v2", 9_999, new Set([1]), [
      { kind: "decided", winner: null },
      { kind: "open", chain: [lottery("46", 4), awaited()] },
    ]);
    await expect(settling).rejects.toBeInstanceOf(UnreadablePrizeError);
    await expect(settling).rejects.toMatchObject({ index: 1, code: "notANumber" });
  });
});
