/** CSV of admin purchases (RFC 4180, comma separated, CRLF, a BOM so spreadsheets read UTF-8). */

/**
 * Where a spreadsheet may start a new cell: a separator it may guess (`,` or `;`, by locale) or
 * a line break (a reader that ignores quotes splits there).
 */
const CELL_BREAK = /([,;\r\n])/;
/**
 * A cell starting with one of these runs as a formula in a spreadsheet (CSV injection); some
 * trim leading spaces first.
 */
const FORMULA_START = /^\s*[=+\-@]|^[\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Defuses a piece of text that a spreadsheet could read as a cell of its own. */
function defuse(piece: string): string {
  return FORMULA_START.test(piece) && !PLAIN_NUMBER.test(piece) ? `'${piece}` : piece;
}

/**
 * Quotes a cell when it holds a separator (`,` or `;`), a quote or a line break, and defuses
 * spreadsheet formulas at its start and after every separator or line break inside it: a file
 * opened with `;` as the separator, or by a reader that ignores quotes, sees those pieces as
 * cells of their own.
 */
export function csvCell(value: unknown): string {
  const text = (value == null ? "" : String(value))
    .split(CELL_BREAK)
    .map((piece, i) => (i % 2 === 0 ? defuse(piece) : piece))
    .join("");
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return "\uFEFF" + [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
