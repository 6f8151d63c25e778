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

/**
 * Spanish texts SPEC gives word for word, in its own capitals ('Compra Exitosa', 'Sorteo No
 * Disponible'): they stay as written. Their English twins are ours, in sentence case.
 */
const SPEC_CAPITALS = new Set([
  "raffle.unavailableTitle",
  "raffle.adminViewTitle",
  "raffle.adminTestTitle",
  "countdown.drawn",
  "countdown.closed",
  "picker.minNotice",
  "picker.restrictionTitle",
  "picker.maxExceededTitle",
  "fieldErrors.ticketsBelowMinimum",
  "fieldErrors.ticketsAboveMaximum",
  "purchase.success",
  "receipt.testMode",
  "admin.live.newPurchase",
]);

/** Names written with a capital wherever they stand (brands, places, days, a tab's name). */
const PROPER = new Set(["WhatsApp", "Zelle", "Banesco", "Táchira", "Unidos", "States", "Spanish", "Monday", "Saturday", "Rifa", "Merkle", "Certificate", "Transparency", "PDFs", "Verificar", "Verify", "Tesseract", "Docker", "Python"]);

/** Words of a message with a capital where a sentence does not start (ICU arguments and tags left out). */
function midSentenceCapitals(message: string): string[] {
  const text = message
    .replace(/\{\s*\w+\s*,\s*(plural|select|number)\s*,?/g, "{")
    .replace(/\{\w+\}/g, " ")
    .replace(/(=\d+|zero|one|two|few|many|other)\s*\{/g, " {")
    .replace(/<\/?\w+>/g, " ");
  return [...text.matchAll(/[A-Za-zÁÉÍÓÚÑáéíóúñü]+/g)].flatMap((m) => {
    const word = m[0];
    if (word.length < 2 || word[0] !== word[0]!.toUpperCase() || word === word.toUpperCase() || PROPER.has(word)) return [];
    const before = text.slice(0, m.index).trimEnd();
    return before === "" || ".!?:¡¿«“(\"-–—·{}|".includes(before.at(-1)!) ? [] : [word];
  });
}

describe("the catalogues' capitals (issue 31)", () => {
  it("write labels in sentence case in both languages, but SPEC's own Spanish texts", () => {
    const found = (catalogue: Tree, lang: string) =>
      [...flatten(catalogue)].flatMap(([key, text]) => {
        if (lang === "es" && SPEC_CAPITALS.has(key)) return [];
        const words = midSentenceCapitals(text);
        return words.length ? [`${lang} ${key}: ${words.join(", ")}`] : [];
      });
    expect([...found(es as Tree, "es"), ...found(en as Tree, "en")]).toEqual([]);
  });

  it("keep SPEC's texts as SPEC writes them", () => {
    const spanish = flatten(es as Tree);
    expect(spanish.get("purchase.success")).toBe("¡Compra Exitosa!");
    expect(spanish.get("raffle.unavailableTitle")).toBe("Sorteo No Disponible");
    expect(spanish.get("picker.restrictionTitle")).toBe("Restricción de Compra");
    expect(spanish.get("admin.live.newPurchase")).toBe("Nueva Compra");
  });
});

describe("the word for an e-mail address (issue 31)", () => {
  const spanish = flatten(es as Tree);
  const english = flatten(en as Tree);
  /** SPEC's own Spanish texts that say 'email'. */
  const SPEC_EMAIL = new Set(["validation.email", "fieldErrors.invalidEmail", "verify.notFound"]);

  it("is one form in each language on the labels of an address", () => {
    for (const key of ["footer.email", "verify.email", "verify.emailLabel", "purchase.customerEmail", "admin.detail.email", "paymentDetails.keys.email"]) {
      expect(spanish.get(key), key).toBe("Correo electrónico");
      expect(english.get(key), key).toBe("E-mail");
    }
  });

  it("is never 'email' anywhere else, SPEC's Spanish texts aside", () => {
    const word = /\bemail\b/i;
    const strip = (text: string) => text.replace(/\{\w+\}/g, "");
    const found = [
      ...[...spanish].filter(([key, text]) => !SPEC_EMAIL.has(key) && word.test(strip(text))).map(([key]) => `es ${key}`),
      ...[...english].filter(([, text]) => word.test(strip(text).replace(/e-mail/gi, ""))).map(([key]) => `en ${key}`),
    ];
    expect(found).toEqual([]);
  });
});
