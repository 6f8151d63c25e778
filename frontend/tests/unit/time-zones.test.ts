// The panel offers the lottery clocks the server accepts: the same list as
// crates/domain/src/draw/prize.rs's TIME_ZONES, in the same order (read from the source, as
// field-messages.test.ts reads the server's field errors).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LOTTERY_TIME_ZONE, LOTTERY_TIME_ZONES } from "@/lib/draw/display";

const PRIZE_RS = join(process.cwd(), "../crates/domain/src/draw/prize.rs");

describe("the lottery time zones", () => {
  it("are the server's, with its default first", () => {
    const source = readFileSync(PRIZE_RS, "utf8");
    const list = /pub const TIME_ZONES: \[&str; \d+\] = \[([\s\S]*?)\];/.exec(source)?.[1];
    if (!list) throw new Error("no TIME_ZONES in crates/domain/src/draw/prize.rs");
    expect([...LOTTERY_TIME_ZONES]).toEqual([...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
    expect(source).toContain(`pub const DEFAULT_TIME_ZONE: Tz = chrono_tz::${DEFAULT_LOTTERY_TIME_ZONE.replace("/", "::")};`);
  });
});
