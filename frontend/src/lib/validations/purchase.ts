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
  referenceRequired: string;
  referenceInvalid: string;
  referenceTooLong: string;
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

/** The longest payment reference accepted, in characters (the server's limit). */
export const MAX_REFERENCE_CHARS = 40;

/** What the chosen payment method asks of the reference (`referenceRequired`, `referenceMinLength`). */
export interface ReferencePolicy {
  required: boolean;
  /** Letters and digits at least; 0 accepts any length. */
  minLength: number;
}

export const NO_REFERENCE_POLICY: ReferencePolicy = { required: false, minLength: 0 };

/** The letters (A-Z, a-z) and digits of a reference: what the server counts and compares. */
export function referenceLength(value: string): number {
  return value.replace(/[^A-Za-z0-9]/g, "").length;
}

export type ReferenceProblem = "required" | "invalid" | "tooLong" | "tooShort";

/**
 * Why a typed reference would be refused, as the server judges it (crates/domain's
 * payment_reference.rs): blank is no reference (refused only when the method requires one);
 * otherwise letters, digits, spaces and `- . / # _`, at most 40, with at least one letter or
 * digit, and at least the method's minimum of letters and digits.
 */
export function referenceProblem(value: string, policy: ReferencePolicy): ReferenceProblem | null {
  const typed = value.trim();
  if (!typed) return policy.required ? "required" : null;
  if ([...typed].length > MAX_REFERENCE_CHARS) return "tooLong";
  if (!/^[A-Za-z0-9 ./#_-]+$/.test(typed) || referenceLength(typed) === 0) return "invalid";
  if (referenceLength(typed) < policy.minLength) return "tooShort";
  return null;
}

/**
 * The purchase form's schema with the messages of the page's language. The proof is optional in
 * the schema (SPEC §5); the form passes `requireProof` so that a missing file is reported on
 * submit together with every other error ('Comprobante requerido - Debes subir un comprobante de
 * pago'), not only once the rest is valid.
 */
export function purchaseSchema(
  m: ValidationMessages,
  {
    requireProof = false,
    reference = NO_REFERENCE_POLICY,
    referenceTooShort = "",
  }: {
    requireProof?: boolean;
    /** The chosen method's reference rules (none chosen: the reference is optional). */
    reference?: ReferencePolicy;
    /** 'Al menos N letras o números', with the policy's minimum. */
    referenceTooShort?: string;
  } = {},
) {
  const referenceMessages: Record<ReferenceProblem, string> = {
    required: m.referenceRequired,
    invalid: m.referenceInvalid,
    tooLong: m.referenceTooLong,
    tooShort: referenceTooShort,
  };
  return z.object({
    customerName: z.string().trim().min(2, m.nameMin),
    customerId: z.string().trim().min(1, m.required).min(5, m.idMin),
    customerEmail: z.string().trim().min(1, m.required).pipe(z.email(m.email)),
    customerPhone: z.string().trim().refine((v) => digits(v) >= 10, m.phoneMin),
    customerCountry: z.enum(COUNTRIES, m.country),
    paymentMethod: z.string().min(1, m.paymentMethod),
    paymentReference: z
      .string()
      .optional()
      .superRefine((value, ctx) => {
        const problem = referenceProblem(value ?? "", reference);
        if (problem) ctx.addIssue({ code: "custom", message: referenceMessages[problem] });
      }),
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
