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
  /**
   * A stored bank or crypto method's keys the form has no field for (an e-mail, a holder's
   * name…): kept and sent back with the type's own fields, so editing loses nothing.
   */
  extra: KeyValue[];
}

/** The keys each fixed form edits itself. */
const OWN_KEYS: Record<Exclude<FormType, "digital">, readonly string[]> = {
  bank: ["bankName", "accountNumber", "accountType"],
  crypto: ["walletAddress", "network"],
};

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
    extra: [],
  };
}

/** Fills the draft from a stored method's details, so editing keeps what was there. */
export function draftFromDetails(type: string, details: Record<string, unknown> | null | undefined): DetailsDraft {
  const draft = emptyDraft();
  const entries = Object.entries(details ?? {}).map(([key, value]) => ({ key, value: value == null ? "" : String(value) }));
  const get = (key: string) => entries.find((e) => e.key === key)?.value ?? "";
  const formType = formTypeOf(type);
  if (formType !== "digital") draft.extra = entries.filter((e) => !OWN_KEYS[formType].includes(e.key));
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

/**
 * The details object sent for a type: digital drops rows without a key; values are trimmed; bank
 * and crypto keep the stored keys they have no field for.
 */
export function detailsFor(type: FormType, draft: DetailsDraft): Record<string, string> {
  const extra = Object.fromEntries(draft.extra.map(({ key, value }) => [key, value]));
  if (type === "bank") {
    return {
      ...extra,
      bankName: draft.bank.bankName.trim(),
      accountNumber: draft.bank.accountNumber.trim(),
      accountType: draft.bank.accountType,
    };
  }
  if (type === "crypto") {
    return { ...extra, walletAddress: draft.crypto.walletAddress.trim(), network: draft.crypto.network };
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

/** Detail keys the panel names in its own language (others are split into words). */
export const KNOWN_DETAIL_KEYS = [
  "bankName",
  "accountNumber",
  "accountType",
  "accountHolder",
  "walletAddress",
  "network",
  "email",
  "phone",
  "account",
  "holder",
  "idNumber",
] as const;

export type KnownDetailKey = (typeof KNOWN_DETAIL_KEYS)[number];

export function isKnownDetailKey(key: string): key is KnownDetailKey {
  return (KNOWN_DETAIL_KEYS as readonly string[]).includes(key);
}

/** The details as one line of text for the table ("Banco: Banesco · Número de cuenta: …"). */
export function detailsText(
  details: Record<string, unknown> | null | undefined,
  label: (key: string) => string,
  show: (key: string, value: string) => string = (_, value) => value,
): string {
  return Object.entries(details ?? {})
    .map(([key, value]) => `${label(key)}: ${show(key, value == null ? "" : String(value))}`)
    .join(" · ");
}
