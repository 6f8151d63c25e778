/**
 * How to show a payment proof link (SPEC §2 "Dialogs", §7): an image or a PDF, and the
 * `/uploads/{file}` fallback. The API's links are `/api/proofs/{token}` (the same file is
 * served as `/uploads/{token}`) or an absolute object-store URL.
 */
export type ProofKind = "image" | "pdf" | "unknown";

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
const PDF = /\.pdf$/i;

function kindOfName(name: string): ProofKind {
  if (PDF.test(name)) return "pdf";
  if (IMAGE.test(name)) return "image";
  return "unknown";
}

/** The stored file name a signed link names: its path, or the `sub` claim of a JWT token in it. */
export function proofFileName(link: string): string {
  let path = link;
  try {
    path = new URL(link, "http://x").pathname;
  } catch {
    // keep the text as it is
  }
  const last = decodeURIComponent(path.split("/").pop() ?? "");
  if (kindOfName(last) !== "unknown") return last;
  const payload = last.split(".")[1];
  if (payload) {
    try {
      const sub: unknown = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))).sub;
      if (typeof sub === "string") return sub;
    } catch {
      // not a token
    }
  }
  return last;
}

/** Image or PDF by the file's name when it tells; "unknown" means try it as an image first. */
export function proofKind(link: string): ProofKind {
  return kindOfName(proofFileName(link));
}

/** The spec's fallback path for a proof image that failed to load: `/uploads/{file}`. */
export function uploadsFallback(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link, "http://x");
  } catch {
    return null;
  }
  const file = url.pathname.split("/").filter(Boolean).pop();
  if (!file) return null;
  const fallback = `/uploads/${file}${url.search}`;
  return url.pathname === fallback.split("?")[0] ? null : fallback;
}
