/** "accountNumber" → "Account number", "bank_name" → "Bank name" (SPEC §2: the key split into words). */
export function splitKey(key: string): string {
  const words = key
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
