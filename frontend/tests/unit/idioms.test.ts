// The frontend's idioms, checked over the source so a newcomer's copy of the wrong pattern fails
// here rather than in review (issue 13, moves 4 and 5).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Vitest runs from frontend/ (its config is there).
const SRC = join(process.cwd(), "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `file:line: text` of every line matching `pattern`, in files `allowed` does not accept. */
function offenders(pattern: RegExp, allowed: (file: string) => boolean): string[] {
  return sources(SRC)
    .map((path) => relative(SRC, path))
    .filter((file) => !allowed(file))
    .flatMap((file) =>
      readFileSync(join(SRC, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
}

describe("one set of formatters", () => {
  it("formats numbers, money and dates only in src/lib/format.ts", () => {
    expect(offenders(/\bIntl\.|\.toLocale\w*\(|["'`](?:es-ES|en-US)["'`]/, (file) => file === "lib/format.ts")).toEqual([]);
  });
});

describe("one data idiom", () => {
  it("reads through the hooks of src/lib/swr, whose cache.ts names every key", () => {
    // SWRConfig (options: the fetcher, the panel's sign-out on 401) may be set anywhere; reading
    // and writing the cache happens only in src/lib/swr.
    expect(offenders(/\buseSWR\w*\b/, (file) => file.startsWith("lib/swr/"))).toEqual([]);
  });
});

/** A form may take its fields from a sibling `*-fields` component, which must use FormField itself. */
function fieldsModuleUsesFormField(file: string, text: string): boolean {
  return [...text.matchAll(/from "\.\/([\w-]+-fields)"/g)].some(([, name]) => {
    const fields = join(SRC, dirname(file), `${name}.tsx`);
    return /<FormField\b/.test(readFileSync(fields, "utf8"));
  });
}

describe("one form idiom", () => {
  it("builds every form on react-hook-form, a zod schema from src/lib/validations and FormField", () => {
    const forms = sources(SRC)
      .map((path) => ({ file: relative(SRC, path), text: readFileSync(path, "utf8") }))
      .filter(({ text }) => /<form\b/.test(text));
    expect(forms.length).toBeGreaterThan(5);
    const off = forms.flatMap(({ file, text }) => [
      ...(/\buseForm\b/.test(text) ? [] : [`${file}: no useForm`]),
      ...(/from "@\/lib\/validations\//.test(text) ? [] : [`${file}: no schema from src/lib/validations`]),
      ...(/<FormField\b/.test(text) || fieldsModuleUsesFormField(file, text) ? [] : [`${file}: no FormField`]),
      // A label outside FormField is a field that skipped the idiom.
      ...(/<Label\b/.test(text) ? [`${file}: a <Label> outside FormField`] : []),
    ]);
    expect(off).toEqual([]);
  });
});
