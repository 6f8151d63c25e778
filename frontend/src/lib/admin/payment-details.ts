/**
 * Payment-method details by type (SPEC §3 "Payment method", §5): the admin form edits a type's
 * own fields and sends them as one object of strings.
 */
export const FORM_TYPES = ["digital", "bank", "crypto"] as const;
export type FormType = (typeof FORM_TYPES)[number];

export const CRYPTO_NETWORKS = ["bitcoin", "ethereum", "bsc", "tron", "polygon"] as const;
export const BANK_ACCOUNT_TYPES = ["corriente", "ahorro"] as const;

export interface KeyValue {
  key: string;
  value: string;
}

export interface BankDetails {
  bankName: string;
  accountNumber: string;
  accountType: (typeof BANK_ACCOUNT_TYPES)[number];
}

export interface CryptoDetails {
  walletAddress: string;
  network: (typeof CRYPTO_NETWORKS)[number];
}

/** Everything the dialog edits; only the chosen type's part is sent. */
export interface DetailsDraft {
  digital: KeyValue[];
  bank: BankDetails;
  crypto: CryptoDetails;
}

export function isFormType(type: string): type is FormType {
  return (FORM_TYPES as readonly string[]).includes(type);
}

/** The form's type for a stored method: its own when the form offers it, else digital (free fields). */
export function formTypeOf(type: string): FormType {
  return isFormType(type) ? type : "digital";
}

export function emptyDraft(): DetailsDraft {
  return {
    digital: [{ key: "", value: "" }],
    bank: { bankName: "", accountNumber: "", accountType: "corriente" },
    crypto: { walletAddress: "", network: "bitcoin" },
  };
}

/** Fills the draft from a stored method's details, so editing keeps what was there. */
export function draftFromDetails(type: string, details: Record<string, unknown> | null | undefined): DetailsDraft {
  const draft = emptyDraft();
  const entries = Object.entries(details ?? {}).map(([key, value]) => ({ key, value: value == null ? "" : String(value) }));
  const get = (key: string) => entries.find((e) => e.key === key)?.value ?? "";
  const formType = formTypeOf(type);
  if (formType === "bank") {
    const accountType = get("accountType");
    draft.bank = {
      bankName: get("bankName"),
      accountNumber: get("accountNumber"),
      accountType: (BANK_ACCOUNT_TYPES as readonly string[]).includes(accountType) ? (accountType as BankDetails["accountType"]) : "corriente",
    };
  } else if (formType === "crypto") {
    const network = get("network");
    draft.crypto = {
      walletAddress: get("walletAddress"),
      network: (CRYPTO_NETWORKS as readonly string[]).includes(network) ? (network as CryptoDetails["network"]) : "bitcoin",
    };
  } else if (entries.length > 0) {
    draft.digital = entries;
  }
  return draft;
}

/** The details object sent for a type: digital drops rows without a key; values are trimmed. */
export function detailsFor(type: FormType, draft: DetailsDraft): Record<string, string> {
  if (type === "bank") {
    return {
      bankName: draft.bank.bankName.trim(),
      accountNumber: draft.bank.accountNumber.trim(),
      accountType: draft.bank.accountType,
    };
  }
  if (type === "crypto") {
    return { walletAddress: draft.crypto.walletAddress.trim(), network: draft.crypto.network };
  }
  const out: Record<string, string> = {};
  for (const { key, value } of draft.digital) {
    const k = key.trim();
    if (k) out[k] = value.trim();
  }
  return out;
}

/** A digital row may be removed only while more than one exists (SPEC §5). */
export function canRemoveField(draft: DetailsDraft): boolean {
  return draft.digital.length > 1;
}

/** The details as one line of text for the table ("Bank name: Banesco · Account number: …"). */
export function detailsText(details: Record<string, unknown> | null | undefined, label: (key: string) => string): string {
  return Object.entries(details ?? {})
    .map(([key, value]) => `${label(key)}: ${value == null ? "" : String(value)}`)
    .join(" · ");
}
