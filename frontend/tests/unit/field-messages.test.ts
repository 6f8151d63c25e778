// Every reason the server gives for refusing a field (crates/domain/src/validation.rs's
// FieldError) has its text in both of the site's languages, with the same parameters, so a form
// can say in its own words what the server would.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import es from "../../messages/es.json";
import en from "../../messages/en.json";

// Vitest runs from frontend/ (its config is there).
const VALIDATION_RS = join(process.cwd(), "../crates/domain/src/validation.rs");

/** The FieldError variants, as the catalogue keys them: `TooShort` → `tooShort`. */
function serverFieldCodes(): string[] {
  const source = readFileSync(VALIDATION_RS, "utf8");
  const body = /pub enum FieldError \{\n([\s\S]*?)\n\}/.exec(source)?.[1];
  if (!body) throw new Error("no `pub enum FieldError` in crates/domain/src/validation.rs");
  const variants = [...body.matchAll(/^ {4}([A-Z]\w*)/gm)].map((m) => m[1]!);
  return variants.map((name) => name[0]!.toLowerCase() + name.slice(1));
}

/**
 * The names of a message's ICU arguments: "{min, plural, …} of {max}" → ["max", "min"]. An
 * argument's name is followed by `,` or `}`; a plural branch's words ("{Ya tienes # …}") are not.
 */
function argumentsOf(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([A-Za-z]\w*)\s*[,}]/g)].map((m) => m[1]!))].sort();
}

describe("server field messages", () => {
  const codes = serverFieldCodes();

  it("finds the server's field codes", () => {
    expect(codes).toContain("required");
    expect(codes).toContain("tooShort");
    expect(codes.length).toBeGreaterThan(20);
  });

  it.each([
    ["es", es.fieldErrors],
    ["en", en.fieldErrors],
  ] as const)("has every one, and no other, in %s", (_, messages) => {
    expect(Object.keys(messages).sort()).toEqual([...codes].sort());
  });

  it("names the same parameters in both languages", () => {
    for (const code of codes) {
      const key = code as keyof typeof es.fieldErrors;
      expect(argumentsOf(en.fieldErrors[key]), code).toEqual(argumentsOf(es.fieldErrors[key]));
    }
  });
});
