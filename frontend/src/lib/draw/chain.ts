import type { PrizeSource } from "@/lib/api/types";
import { zoneOffsetMs } from "@/lib/format";
import { digitsUsed } from "./verify";
import type { Rule } from "./fair";

/**
 * A prize's chain recomputed from its published source alone (prize.rs `PrizeSource::chain`,
 * `deadline`, `digits_read`; beacon.rs `first_round_from`), so the verifier trusts neither the
 * file's `deadline` nor its `fallbackRound`: a lottery is followed by the first drand quicknet
 * round published ten minutes or more after the lottery's deadline.
 */

/** Round 1 of drand's quicknet (Unix seconds) and the seconds between rounds (beacon.rs). */
export const QUICKNET_GENESIS = 1_692_803_367;
export const QUICKNET_PERIOD_SECS = 3;
/** How long after a lottery's deadline its fallback round comes (prize.rs FREEZE_MARGIN). */
const FALLBACK_MARGIN_SECS = 10 * 60;
/** prize.rs DEFAULT_DEADLINE_HOURS and DEFAULT_TIME_ZONE. */
export const DEFAULT_DEADLINE_HOURS = 24;
const DEFAULT_TIME_ZONE = "America/Caracas";

/** A published source the rules cannot name (a day, time or clock that does not parse): dto/draw.rs `UnreadableDraw::Source`. */
export class UnreadableSourceError extends Error {
  constructor(what: string) {
    super(`Not a prize source: ${what}`);
    this.name = "UnreadableSourceError";
  }
}

/** The offset of `timeZone` from UTC at the instant `utcMs`, in milliseconds. */
const offsetAt = zoneOffsetMs;

/** The earliest instant that reads `localMs` (local fields laid out as UTC) on `timeZone`'s clock; null in a gap (chrono `from_local_datetime(..).earliest()`). */
function earliestFromLocal(localMs: number, timeZone: string): number | null {
  const day = 86_400_000;
  const offsets = new Set([offsetAt(localMs - day, timeZone), offsetAt(localMs, timeZone), offsetAt(localMs + day, timeZone)]);
  const valid = [...offsets].map((offset) => localMs - offset).filter((utc) => utc + offsetAt(utc, timeZone) === localMs);
  return valid.length ? Math.min(...valid) : null;
}

/** When a lottery draws, UTC milliseconds (prize.rs `draws_at`): its local day and time on its clock; a time skipped by a clock change is read an hour later. */
export function lotteryDrawsAt(source: Extract<PrizeSource, { kind: "lottery" }>): number {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(source.drawDate);
  const time = source.drawTime ? /^(\d{2}):(\d{2})$/.exec(source.drawTime) : ["", "00", "00"];
  if (!date || !time) throw new UnreadableSourceError(`${source.drawDate} ${source.drawTime ?? ""}`);
  const timeZone = source.timeZone || DEFAULT_TIME_ZONE;
  const [year, month, day, hour, minute] = [date[1], date[2], date[3], time[1], time[2]].map(Number) as [number, number, number, number, number];
  const localMs = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(localMs);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) {
    throw new UnreadableSourceError(`${source.drawDate} ${source.drawTime ?? ""}`);
  }
  try {
    return earliestFromLocal(localMs, timeZone) ?? earliestFromLocal(localMs + 3_600_000, timeZone) ?? localMs;
  } catch (error) {
    if (error instanceof RangeError) throw new UnreadableSourceError(timeZone);
    throw error;
  }
}

/** Until when a lottery's result may be recorded, UTC milliseconds; a round has no deadline. */
export function sourceDeadline(source: PrizeSource): number | null {
  if (source.kind !== "lottery") return null;
  return lotteryDrawsAt(source) + (source.deadlineHours ?? DEFAULT_DEADLINE_HOURS) * 3_600_000;
}

/** The first quicknet round published at or after `utcMs` (beacon.rs `first_round_from`). */
export function firstRoundFrom(utcMs: number): number {
  const sinceGenesis = Math.max(utcMs - QUICKNET_GENESIS * 1000, 0);
  return Math.ceil(sinceGenesis / (QUICKNET_PERIOD_SECS * 1000)) + 1;
}

/** When quicknet publishes `round`, UTC milliseconds. */
export function roundTime(round: number): number {
  return (QUICKNET_GENESIS + QUICKNET_PERIOD_SECS * Math.max(round - 1, 0)) * 1000;
}

/** The round that decides a lottery prize its lottery does not: the first one ten minutes or more after its deadline. */
export function fallbackRound(source: PrizeSource): number | null {
  const deadline = sourceDeadline(source);
  return deadline === null ? null : firstRoundFrom(deadline + FALLBACK_MARGIN_SECS * 1000);
}

/** A prize's chain under `rule`: its source, then for a lottery under the fair rules its fallback round (`rifa-rule-v1` has none). */
export function chainOf(rule: Rule, source: PrizeSource): PrizeSource[] {
  const round = rule === "rifa-rule-v1" ? null : fallbackRound(source);
  return round === null ? [source] : [source, { kind: "beacon", round }];
}

/** How many of a result's last digits `rule` reads from `source` in a raffle of `maxTickets` (a round is read whole: 0). */
export function digitsRead(source: PrizeSource, rule: Rule, maxTickets: number): number {
  if (source.kind === "beacon") return 0;
  const sizeDigits = digitsUsed(maxTickets);
  return rule === "rifa-among-sold-v2" ? (source.digits ?? sizeDigits) : sizeDigits;
}

/** An instant as the record writes a lapse's deadline: RFC 3339, UTC, whole seconds, "Z". */
export function recordInstant(utcMs: number): string {
  return new Date(Math.floor(utcMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
