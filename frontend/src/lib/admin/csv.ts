/** CSV of admin purchases (RFC 4180, comma separated, CRLF, a BOM so spreadsheets read UTF-8). */

/** Quotes a cell when it holds a comma, quote or line break; defuses spreadsheet formulas. */
export function csvCell(value: unknown): string {
  let text = value == null ? "" : String(value);
  // A cell starting with = + - @ would run as a formula in a spreadsheet (CSV injection).
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return "\uFEFF" + [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
