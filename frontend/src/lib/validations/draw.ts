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
} as const;

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
  round: z.string(),
});

export type PrizeDraft = z.input<typeof prizeDraftSchema>;

/** The prizes editor's schema: the prizes in order, each message on its field. */
export function prizesSchema(m: PrizeMessages) {
  const text = (value: string) => (!value.trim() ? m.required : value.trim().length < DRAW_LIMITS.textMin ? m.tooShort : null);
  return z.object({
    prizes: z.array(
      prizeDraftSchema.superRefine((d, ctx) => {
        const problems: [keyof PrizeDraft, string | null][] = [["title", text(d.title)]];
        if (d.kind === "lottery") {
          problems.push(["lotteryName", text(d.lotteryName)], ["drawDate", d.drawDate ? null : m.required], ["sourceUrl", d.sourceUrl.trim() ? null : m.required]);
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
  return { title: "", description: "", image: "", kind: "lottery", lotteryName: "", drawDate: "", drawTime: "", timeZone: DEFAULT_LOTTERY_TIME_ZONE, sourceUrl: "", round: "" };
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
        }
      : { kind: "beacon", round: String(source.round) }),
  };
}

/** The request's prize: trimmed text, no image as null, only the chosen kind's source. */
export function prizeInputOf(d: PrizeDraft): PrizeInput {
  const source: PrizeInput["source"] =
    d.kind === "lottery"
      ? { kind: "lottery", lotteryName: d.lotteryName.trim(), drawDate: d.drawDate, drawTime: d.drawTime || null, timeZone: d.timeZone, sourceUrl: d.sourceUrl.trim() }
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

export function lotteryResultInput(v: LotteryResultValues): PrizeResultInput {
  return { kind: "lottery", result: v.result.trim(), publishedOn: v.publishedOn, officialUrl: v.officialUrl.trim() };
}

export function beaconResultInput(v: BeaconResultValues): PrizeResultInput {
  return { kind: "beacon", signature: v.signature.trim() || null };
}

/** A delivery's photo: an optional image URL, checked by the server. */
export const deliverySchema = z.object({ photo: z.string() });

export type DeliveryValues = z.input<typeof deliverySchema>;
