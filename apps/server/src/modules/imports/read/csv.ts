import type { ErrorList } from './error-list.js';
import { TableBuilder } from './table.js';
import type { ImportTable } from './types.js';

/**
 * UTF-8 (with or without a BOM); a file that is not valid UTF-8 is read as Windows-1250, the
 * encoding Polish Excel saves "CSV" in.
 */
export function decodeText(data: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    text = new TextDecoder('windows-1250').decode(data);
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** `;` (Polish Excel) or `,`: whichever occurs more often outside quotes in the header line. */
export function sniffSeparator(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * RFC 4180 with either separator: fields in double quotes may hold separators, line breaks and
 * doubled quotes. A quote inside an unquoted field, text after a closing quote or a quote left
 * open are errors (the row's values would otherwise be guessed). Every value is text (an empty
 * one is null): numbers and dates are parsed by the import's validation, and text starting with
 * = + - @ stays text.
 */
export function readCsv(
  file: string,
  data: Buffer,
  errors: ErrorList,
  maxRows: number,
): ImportTable {
  const text = decodeText(data);
  const separator = sniffSeparator(text);
  const table = new TableBuilder(file, errors, maxRows, (index) => String(index + 1));
  let row = 1;
  let fields: (string | null)[] = [];
  let field = '';
  let wasQuoted = false;
  let bad = false;
  let i = 0;
  const endField = (): void => {
    fields.push(field === '' && !wasQuoted ? null : field);
    field = '';
    wasQuoted = false;
  };
  const endRow = (): void => {
    endField();
    if (!bad) table.add(row, fields);
    fields = [];
    bad = false;
    row += 1;
  };
  const fail = (message: string): void => {
    if (!bad) errors.add(file, message, row, String(fields.length + 1));
    bad = true;
  };
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' && field === '' && !wasQuoted) {
      // A quoted field: up to the closing quote, "" being one quote.
      let j = i + 1;
      let closed = false;
      while (j < text.length) {
        const c = text[j]!;
        if (c === '"') {
          if (text[j + 1] === '"') {
            field += '"';
            j += 2;
            continue;
          }
          closed = true;
          j += 1;
          break;
        }
        field += c;
        j += 1;
      }
      wasQuoted = true;
      if (!closed) {
        fail('cudzysłów otwarty i niezamknięty do końca pliku');
        break;
      }
      i = j;
      const next = text[i];
      if (next !== undefined && next !== separator && next !== '\n' && next !== '\r') {
        fail('tekst po zamykającym cudzysłowie');
        // Skip to the next separator or line end so that the rest of the file is still read.
        while (i < text.length && text[i] !== separator && text[i] !== '\n' && text[i] !== '\r')
          i += 1;
      }
      continue;
    }
    if (char === separator) {
      endField();
      i += 1;
    } else if (char === '\n' || char === '\r') {
      endRow();
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      if (char === '"') fail('cudzysłów wewnątrz pola bez cudzysłowów');
      field += char;
      i += 1;
    }
  }
  if (field !== '' || wasQuoted || fields.length > 0) endRow();
  return table.build();
}
