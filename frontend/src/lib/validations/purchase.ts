import { z } from "zod";

/** Proof of payment limits (SPEC §5, §9). */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;
export const PROOF_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf"] as const;
export const PROOF_ACCEPT = ".jpg,.jpeg,.png,.gif,.webp,.pdf,image/jpeg,image/png,image/gif,image/webp,application/pdf";

export const COUNTRIES = ["venezuela", "colombia", "mexico", "argentina", "peru", "ecuador", "estados-unidos", "other"] as const;
export type Country = (typeof COUNTRIES)[number];

/** The messages the schema shows, from the `validation` namespace of messages/{es,en}.json. */
export interface ValidationMessages {
  required: string;
  nameMin: string;
  idMin: string;
  email: string;
  phoneMin: string;
  country: string;
  paymentMethod: string;
  acceptTerms: string;
  proofRequiredTitle: string;
  proofRequired: string;
  fileTooBigTitle: string;
  fileTooBig: string;
  fileTypeTitle: string;
  fileType: string;
  fileHeic: string;
}

export type ProofProblem = { title: string; message: string };

/** An iPhone photo (HEIC/HEIF) or an AVIF picture, by its type or, when the browser gives none, its name. */
function isHeif(file: File): boolean {
  return /^image\/(heic|heif|heic-sequence|heif-sequence|avif)$/i.test(file.type) || /\.(heic|heif|avif)$/i.test(file.name);
}

/** Checks a chosen proof file: size first, then type (an iPhone photo told what to send instead, as the server does). */
export function checkProofFile(file: File | null | undefined, m: ValidationMessages): ProofProblem | null {
  if (!file) return { title: m.proofRequiredTitle, message: m.proofRequired };
  if (file.size > MAX_PROOF_BYTES) return { title: m.fileTooBigTitle, message: m.fileTooBig };
  if (isHeif(file)) return { title: m.fileTypeTitle, message: m.fileHeic };
  if (!(PROOF_TYPES as readonly string[]).includes(file.type)) return { title: m.fileTypeTitle, message: m.fileType };
  return null;
}

const digits = (value: string) => value.replace(/\D/g, "").length;

/**
 * The purchase form's schema with the messages of the page's language. The proof is optional in
 * the schema (SPEC §5); the form passes `requireProof` so that a missing file is reported on
 * submit together with every other error ('Comprobante requerido - Debes subir un comprobante de
 * pago'), not only once the rest is valid.
 */
export function purchaseSchema(m: ValidationMessages, { requireProof = false }: { requireProof?: boolean } = {}) {
  return z.object({
    customerName: z.string().trim().min(2, m.nameMin),
    customerId: z.string().trim().min(1, m.required).min(5, m.idMin),
    customerEmail: z.string().trim().min(1, m.required).pipe(z.email(m.email)),
    customerPhone: z.string().trim().refine((v) => digits(v) >= 10, m.phoneMin),
    customerCountry: z.enum(COUNTRIES, m.country),
    paymentMethod: z.string().min(1, m.paymentMethod),
    paymentProof: z
      .custom<File | null>((v) => v === null || v === undefined || (typeof File !== "undefined" && v instanceof File))
      .optional()
      .superRefine((file, ctx) => {
        if (!file && !requireProof) return;
        const problem = checkProofFile(file, m);
        if (problem) ctx.addIssue({ code: "custom", message: `${problem.title} - ${problem.message}` });
      }),
    acceptTerms: z.boolean().refine((v) => v, m.acceptTerms),
  });
}

export type PurchaseFormValues = z.input<ReturnType<typeof purchaseSchema>>;
