import { z } from "zod";
import type { Path } from "react-hook-form";
import type { AdminPrize, PrizeInput, PrizeResultInput } from "@/lib/api/types";
import { DEFAULT_LOTTERY_TIME_ZONE } from "@/lib/draw/display";

/**
 * The forms of the verifiable draw: the prizes, a prize's result and its delivery. The client
 * checks what is plain to check with the server's words (`fieldErrors`); the server judges the
 * rest (URLs, dates, the rule reading a result) and its messages land on the same fields.
 */

/** The server's limits (crates/domain/src/draw/prize.rs). */
export const DRAW_LIMITS = {
  /** Title and lottery name: at least 2 characters. */
  textMin: 2,
  titleMax: 200,
  descriptionMax: 2000,
  nameMax: 120,
  urlMax: 2048,
  resultMax: 60,
  roundMax: 999_999_999_999,
  /** A lottery source's digits read under `rifa-among-sold-v2` (fair.rs MAX_SOURCE_DIGITS). */
  digitsMin: 1,
  digitsMax: 18,
  /** Hours after a lottery's draw its result may be recorded (prize.rs MAX_DEADLINE_HOURS); none is 24. */
  deadlineHoursMin: 1,
  deadlineHoursMax: 168,
} as const;

/** The rules a raffle may be given (fair.rs): among the sold numbers by default, or the lottery's number itself. `rifa-rule-v1` is only shown, for raffles frozen under it. */
export const OFFERED_RULES = ["rifa-among-sold-v2", "rifa-number-v2"] as const;
export const DEFAULT_RULE = "rifa-among-sold-v2";

export const PRIZE_SOURCE_KINDS = ["lottery", "beacon"] as const;

export type PrizeSourceKind = (typeof PRIZE_SOURCE_KINDS)[number];

/** Digits, spaces and the separators lotteries print, with at least one digit (the rule's reading). */
const READABLE_RESULT = /^(?=.*\d)[\d ./-]+$/;

export interface PrizeMessages {
  required: string;
  /** Shorter than `DRAW_LIMITS.textMin`. */
  tooShort: string;
  /** A round outside 1…`DRAW_LIMITS.roundMax`. */
  roundRange: string;
  /** Digits outside `DRAW_LIMITS.digitsMin`…`digitsMax`. */
  digitsRange: string;
  /** Deadline hours outside `DRAW_LIMITS.deadlineHoursMin`…`deadlineHoursMax`. */
  deadlineHoursRange: string;
}

const prizeDraftSchema = z.object({
  title: z.string(),
  description: z.string(),
  image: z.string(),
  kind: z.enum(PRIZE_SOURCE_KINDS),
  // Both kinds' fields are kept, so switching the kind back and forth loses nothing typed.
  lotteryName: z.string(),
  drawDate: z.string(),
  /** `HH:MM` on the lottery's clock, or empty (the day's first minute). */
  drawTime: z.string(),
  timeZone: z.string(),
  sourceUrl: z.string(),
  /** How many last digits of the lottery's result are read under `rifa-among-sold-v2`; empty is as many as the raffle's size has. */
  digits: z.string(),
  /** Hours after the draw its result may be recorded; empty is 24. */
  deadlineHours: z.string(),
  round: z.string(),
});

/** An optional whole number within min…max: null when it is one (or empty), else `message`. */
function optionalWhole(value: string, min: number, max: number, message: string): string | null {
  const text = value.trim();
  if (!text) return null;
  return /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? null : message;
}

export type PrizeDraft = z.input<typeof prizeDraftSchema>;

/** The prizes editor's schema: the prizes in order, each message on its field. */
export function prizesSchema(m: PrizeMessages) {
  const text = (value: string) => (!value.trim() ? m.required : value.trim().length < DRAW_LIMITS.textMin ? m.tooShort : null);
  return z.object({
    /** The raffle's rule (prizes editor only): one of OFFERED_RULES, or the one it keeps. */
    rule: z.string().optional(),
    prizes: z.array(
      prizeDraftSchema.superRefine((d, ctx) => {
        const problems: [keyof PrizeDraft, string | null][] = [["title", text(d.title)]];
        if (d.kind === "lottery") {
          problems.push(
            ["lotteryName", text(d.lotteryName)],
            ["drawDate", d.drawDate ? null : m.required],
            ["sourceUrl", d.sourceUrl.trim() ? null : m.required],
            ["digits", optionalWhole(d.digits, DRAW_LIMITS.digitsMin, DRAW_LIMITS.digitsMax, m.digitsRange)],
            ["deadlineHours", optionalWhole(d.deadlineHours, DRAW_LIMITS.deadlineHoursMin, DRAW_LIMITS.deadlineHoursMax, m.deadlineHoursRange)],
          );
        } else {
          const round = d.round.trim();
          const valid = /^\d+$/.test(round) && Number(round) >= 1 && Number(round) <= DRAW_LIMITS.roundMax;
          problems.push(["round", !round ? m.required : valid ? null : m.roundRange]);
        }
        for (const [field, message] of problems) if (message) ctx.addIssue({ code: "custom", path: [field], message });
      }),
    ),
  });
}

export type PrizesValues = z.input<ReturnType<typeof prizesSchema>>;

export function emptyPrize(): PrizeDraft {
  return { title: "", description: "", image: "", kind: "lottery", lotteryName: "", drawDate: "", drawTime: "", timeZone: DEFAULT_LOTTERY_TIME_ZONE, sourceUrl: "", digits: "", deadlineHours: "", round: "" };
}

export function prizeDraftOf(prize: Pick<AdminPrize, "title" | "description" | "image" | "source">): PrizeDraft {
  const { source } = prize;
  return {
    ...emptyPrize(),
    title: prize.title,
    description: prize.description,
    image: prize.image ?? "",
    ...(source.kind === "lottery"
      ? {
          kind: "lottery",
          lotteryName: source.lotteryName,
          drawDate: source.drawDate,
          drawTime: source.drawTime ?? "",
          timeZone: source.timeZone || DEFAULT_LOTTERY_TIME_ZONE,
          sourceUrl: source.sourceUrl,
          digits: source.digits == null ? "" : String(source.digits),
          deadlineHours: source.deadlineHours == null ? "" : String(source.deadlineHours),
        }
      : { kind: "beacon", round: String(source.round) }),
  };
}

/** The request's prize: trimmed text, no image as null, only the chosen kind's source. */
export function prizeInputOf(d: PrizeDraft): PrizeInput {
  const source: PrizeInput["source"] =
    d.kind === "lottery"
      ? {
          kind: "lottery",
          lotteryName: d.lotteryName.trim(),
          drawDate: d.drawDate,
          drawTime: d.drawTime || null,
          timeZone: d.timeZone,
          sourceUrl: d.sourceUrl.trim(),
          digits: d.digits.trim() ? Number(d.digits.trim()) : null,
          deadlineHours: d.deadlineHours.trim() ? Number(d.deadlineHours.trim()) : null,
        }
      : { kind: "beacon", round: Number(d.round.trim()) };
  return { title: d.title.trim(), description: d.description.trim(), image: d.image.trim() || null, source };
}

/** The server's names of a prize's fields (`prizes[0].source.sourceUrl`) → the editor's. */
const PRIZE_FIELDS = {
  title: "title",
  description: "description",
  image: "image",
  "source.lotteryName": "lotteryName",
  "source.drawDate": "drawDate",
  "source.drawTime": "drawTime",
  "source.timeZone": "timeZone",
  "source.sourceUrl": "sourceUrl",
  "source.digits": "digits",
  "source.deadlineHours": "deadlineHours",
  "source.round": "round",
} as const satisfies Record<string, keyof PrizeDraft>;

/** For `applyServerFieldErrors`: every field of `count` prizes, by the name the server gives it. */
export function prizeServerFields(count: number): Record<string, Path<PrizesValues>> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) =>
      Object.entries(PRIZE_FIELDS).map(([server, field]) => [`prizes[${i}].${server}`, `prizes.${i}.${field}` as Path<PrizesValues>]),
    ).flat(),
  );
}

export interface ResultMessages {
  required: string;
  /** The result has a character other than digits, spaces, `-`, `.` and `/`, or no digit. */
  notANumber: string;
  /** Longer than `DRAW_LIMITS.resultMax`. */
  tooLong: string;
}

/** A lottery's published result: what it says, the day it was published and where. */
export function lotteryResultSchema(m: ResultMessages) {
  return z.object({
    result: z.string().superRefine((value, ctx) => {
      const result = value.trim();
      const message = !result ? m.required : result.length > DRAW_LIMITS.resultMax ? m.tooLong : READABLE_RESULT.test(result) ? null : m.notANumber;
      if (message) ctx.addIssue({ code: "custom", message });
    }),
    publishedOn: z.string().min(1, m.required),
    officialUrl: z.string().trim().min(1, m.required),
  });
}

export type LotteryResultValues = z.input<ReturnType<typeof lotteryResultSchema>>;

/** A beacon round's signature, optional: blank asks the server to fetch the round from drand. */
export const beaconResultSchema = z.object({ signature: z.string() });

export type BeaconResultValues = z.input<typeof beaconResultSchema>;

export function lotteryResultInput(v: LotteryResultValues): Extract<PrizeResultInput, { kind: "lottery" }> {
  return { kind: "lottery", result: v.result.trim(), publishedOn: v.publishedOn, officialUrl: v.officialUrl.trim() };
}

export function beaconResultInput(v: BeaconResultValues): PrizeResultInput {
  return { kind: "beacon", signature: v.signature.trim() || null };
}

/** A delivery's photo: an optional image URL, checked by the server. */
export const deliverySchema = z.object({ photo: z.string() });

export type DeliveryValues = z.input<typeof deliverySchema>;
