/** A purchase reference as receipts print it: "RF-" and letters or digits ("RF-7K3M9Q2X"). */
const REFERENCE = /\bRF-[0-9A-Z]+\b/i;
/** What a buyer pastes that is an address rather than a reference. */
const LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|\/)/i;

export type ReferenceInput = { kind: "reference"; reference: string } | { kind: "linkWithoutReference" };

/**
 * The reference in what a buyer pasted on the verification page: the text itself, or, when it
 * is a link (a receipt's or the buyer's page's), the reference the link carries. The buyer's
 * private link (/compra/{id}#key) carries none, so the page then asks for the printed one.
 */
export function referenceFromInput(text: string): ReferenceInput {
  const trimmed = text.trim();
  if (!LINK.test(trimmed)) return { kind: "reference", reference: trimmed };
  let decoded = trimmed;
  try {
    decoded = decodeURIComponent(trimmed);
  } catch {
    // A malformed escape: the reference, if any, is still readable as typed.
  }
  const found = decoded.match(REFERENCE);
  return found ? { kind: "reference", reference: found[0] } : { kind: "linkWithoutReference" };
}
