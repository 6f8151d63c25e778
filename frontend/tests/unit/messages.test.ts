// The two catalogues are twins: every text of the site exists in Spanish and in English, with the
// same ICU arguments, so no screen falls back to a key or loses a value in one language.
import { describe, expect, it } from "vitest";
import es from "../../messages/es.json";
import en from "../../messages/en.json";

type Tree = { [key: string]: string | Tree };

/** Every message as "namespace.key.sub" → text. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The names of a message's arguments, plural and select ones included ("{count, plural, one {…}}", "{shown}"), not the words inside their branches. */
const argumentsOf = (message: string) => [...new Set([...message.matchAll(/\{\s*([A-Za-z]\w*)\s*[,}]/g)].map((m) => m[1]!))].sort();

describe("the message catalogues", () => {
  const spanish = flatten(es as Tree);
  const english = flatten(en as Tree);

  it("have the same keys in Spanish and English", () => {
    expect([...english.keys()].sort()).toEqual([...spanish.keys()].sort());
    expect(spanish.size).toBeGreaterThan(500);
  });

  // Callers pass the Spanish message's arguments (keys are typed from es.json): English may need
  // fewer ("{shown} found" has no plural), never one the caller does not pass.
  it("ask in English only for arguments the Spanish text is given", () => {
    const extra = [...english].flatMap(([key, text]) => {
      const given = new Set(argumentsOf(spanish.get(key) ?? ""));
      const missing = argumentsOf(text).filter((name) => !given.has(name));
      return missing.length ? [`${key}: ${missing.join(", ")}`] : [];
    });
    expect(extra).toEqual([]);
  });
});
