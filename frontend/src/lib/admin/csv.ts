/**
 * CSV the panel writes itself (RFC 4180, comma separated, CRLF, a byte-order mark so spreadsheets
 * read UTF-8), with the guard of the server's purchase export (crates/api/src/dto/csv.rs): no cell
 * runs as a formula, whether the file is read with `,` or `;`, or by a reader that ignores quotes.
 */

/** Where a spreadsheet may start a new cell: a separator it may guess (by locale) or a line break. */
const CELL_BREAKS = new Set([",", ";", "\r", "\n"]);

function isPlainNumber(piece: string): boolean {
  return /^-?[0-9]+(\.[0-9]+)?$/.test(piece);
}

/**
 * A piece a spreadsheet would run as a formula (CSV injection): one starting with `=`, `+`, `-`
 * or `@` (some trim leading spaces first), or with a tab or carriage return; a plain number such
 * as `-5` is left alone.
 */
function runsAsFormula(piece: string): boolean {
  const formula = /^[=+\-@]/.test(piece.trimStart()) || /^[\t\r]/.test(piece);
  return formula && !isPlainNumber(piece);
}

const defused = (piece: string) => (runsAsFormula(piece) ? `'${piece}` : piece);

/**
 * The cell as written: a `'` before every piece (at its start, after every separator or line
 * break inside it) that would run as a formula, then quoted when it holds a separator, a quote
 * or a line break.
 */
export function csvCell(value: string): string {
  let text = "";
  let start = 0;
  for (let at = 0; at < value.length; at++) {
    if (CELL_BREAKS.has(value[at]!)) {
      text += defused(value.slice(start, at)) + value[at];
      start = at + 1;
    }
  }
  text += defused(value.slice(start));
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: the byte-order mark, then one CRLF-ended line per row (the header first). */
export function csvText(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("")}`;
}

/** Hands a file to the browser to save (kept until it is, then released). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
