import { TextDecoder } from 'node:util';
/**
 * ER7 text as HL7 v2 defines it (ADR 033): the separators a message declares in MSH-1/MSH-2,
 * the escape sequences of a field's text, and the character sets of MSH-18. @medplum/core
 * splits a message into segments, fields and components but leaves escapes as they are, so a
 * value is decoded here exactly once, after splitting (the order the standard prescribes).
 */

/** The separators of one message (MSH-1 and MSH-2). */
export interface Separators {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
}

export const STANDARD_SEPARATORS: Separators = {
  field: '|',
  component: '^',
  repetition: '~',
  escape: '\\',
  subcomponent: '&',
};

/**
 * The separators of a message that starts `MSH`, or null when they are not five distinct,
 * printable, non-alphanumeric characters (the escape character may be absent in old messages,
 * but then no escape can be read: we require it).
 */
export function separatorsOf(text: string): Separators | null {
  if (!text.startsWith('MSH')) return null;
  const chars = text.slice(3, 8);
  if (chars.length < 5) return null;
  const [field, component, repetition, escape, subcomponent] = [...chars] as [
    string,
    string,
    string,
    string,
    string,
  ];
  const all = [field, component, repetition, escape, subcomponent];
  if (new Set(all).size !== 5) return null;
  if (all.some((char) => !/^[!-/:-@[-`{-~]$/.test(char))) return null;
  // MSH-2 ends at the field separator (a v2.7 truncation character may follow the four).
  if (text[8] !== field && !(text[9] === field && text[8] !== undefined)) return null;
  return { field, component, repetition, escape, subcomponent };
}

/**
 * Decodes a value's escapes: \F\ \S\ \T\ \R\ \E\, \Xhh…\ (bytes, read in the message's
 * character set), \.br\ (a line break) and \H\ \N\ (highlighting, dropped). An unknown or
 * unterminated sequence is kept as written, so nothing is lost.
 */
export function unescapeHl7(
  text: string,
  separators: Separators,
  decodeBytes: (bytes: Buffer) => string = (bytes) => bytes.toString('latin1'),
): string {
  const e = separators.escape;
  if (!text.includes(e)) return text;
  let out = '';
  let index = 0;
  while (index < text.length) {
    const start = text.indexOf(e, index);
    if (start < 0) {
      out += text.slice(index);
      break;
    }
    out += text.slice(index, start);
    const end = text.indexOf(e, start + 1);
    if (end < 0) {
      out += text.slice(start);
      break;
    }
    const sequence = text.slice(start + 1, end);
    const decoded = decodeSequence(sequence, separators, decodeBytes);
    if (decoded === null) {
      // Not an escape: keep the escape character and read on after it.
      out += e;
      index = start + 1;
      continue;
    }
    out += decoded;
    index = end + 1;
  }
  return out;
}

function decodeSequence(
  sequence: string,
  separators: Separators,
  decodeBytes: (bytes: Buffer) => string,
): string | null {
  switch (sequence) {
    case 'F':
      return separators.field;
    case 'S':
      return separators.component;
    case 'T':
      return separators.subcomponent;
    case 'R':
      return separators.repetition;
    case 'E':
      return separators.escape;
    case '.br':
      return '\n';
    case 'H':
    case 'N':
      return '';
  }
  const hex = /^X((?:[0-9A-Fa-f]{2})+)$/.exec(sequence);
  if (hex?.[1]) return decodeBytes(Buffer.from(hex[1], 'hex'));
  // Formatting commands of FT (\.sp\, \.in+2\, …): no layout here, a space keeps words apart.
  if (/^\.(sp|fi|nf|in|ti|sk|ce)[+-]?\d*$/.test(sequence)) return sequence === '.sp' ? '\n' : '';
  return null;
}

/**
 * Escapes text for one field, component or subcomponent of ER7 written with `separators`:
 * the escape character first, then every separator; CR and LF (never allowed inside a segment)
 * as \X0D\ and \X0A\; other control characters are dropped.
 */
export function escapeHl7(text: string, separators: Separators = STANDARD_SEPARATORS): string {
  const { field, component, repetition, escape, subcomponent } = separators;
  let out = '';
  for (const char of text) {
    if (char === escape) out += `${escape}E${escape}`;
    else if (char === field) out += `${escape}F${escape}`;
    else if (char === component) out += `${escape}S${escape}`;
    else if (char === subcomponent) out += `${escape}T${escape}`;
    else if (char === repetition) out += `${escape}R${escape}`;
    else if (char === '\r') out += `${escape}X0D${escape}`;
    else if (char === '\n') out += `${escape}X0A${escape}`;
    // eslint-disable-next-line no-control-regex -- control characters are what is dropped
    else if (/[\u0000-\u001f\u007f]/.test(char)) continue;
    else out += char;
  }
  return out;
}

/** A composite value: each component escaped, joined with the component separator. */
export function composite(
  components: readonly string[],
  separators: Separators = STANDARD_SEPARATORS,
): string {
  return components.map((part) => escapeHl7(part, separators)).join(separators.component);
}

/** A charset Node's TextDecoder reads, by its WHATWG label. */
export type Charset = 'utf-8' | 'iso-8859-2' | 'windows-1250' | 'iso-8859-1' | 'us-ascii';

/**
 * MSH-18 (HL7 table 0211) and HTTP charset names we read. ISO-8859-1 is read as such (not as
 * windows-1252, which TextDecoder would substitute). Windows-1250 is not in table 0211, but
 * Polish laboratory systems send it; its usual spellings are accepted.
 */
const CHARSETS: Record<string, Charset> = {
  'UNICODE UTF-8': 'utf-8',
  'UTF-8': 'utf-8',
  UTF8: 'utf-8',
  '8859/2': 'iso-8859-2',
  'ISO-8859-2': 'iso-8859-2',
  'ISO8859-2': 'iso-8859-2',
  ISO_8859_2: 'iso-8859-2',
  '8859/1': 'iso-8859-1',
  'ISO-8859-1': 'iso-8859-1',
  'ISO8859-1': 'iso-8859-1',
  ASCII: 'us-ascii',
  'US-ASCII': 'us-ascii',
  'WINDOWS-1250': 'windows-1250',
  CP1250: 'windows-1250',
  'CP-1250': 'windows-1250',
  '1250': 'windows-1250',
  WIN1250: 'windows-1250',
};

/** The charset a name denotes, or null for one we do not read. */
export function charsetOf(name: string): Charset | null {
  return CHARSETS[name.trim().toUpperCase()] ?? null;
}

/** The MSH-18 value we answer with for a charset (table 0211; Windows-1250 by its name). */
export function msh18Of(charset: Charset): string {
  switch (charset) {
    case 'utf-8':
      return 'UNICODE UTF-8';
    case 'iso-8859-2':
      return '8859/2';
    case 'iso-8859-1':
      return '8859/1';
    case 'us-ascii':
      return 'ASCII';
    case 'windows-1250':
      return 'WINDOWS-1250';
  }
}

const decoders = new Map<Charset, TextDecoder>();

/**
 * Decodes bytes in a charset; throws on bytes the charset does not define (TextDecoder's
 * `fatal`). ISO-8859-1 defines every byte (read as latin1); ASCII refuses bytes above 0x7F.
 */
export function decodeStrict(bytes: Buffer, charset: Charset): string {
  if (charset === 'iso-8859-1') return bytes.toString('latin1');
  if (charset === 'us-ascii') {
    if (bytes.some((byte) => byte > 0x7f)) throw new TypeError('byte above 0x7F in ASCII');
    return bytes.toString('latin1');
  }
  let decoder = decoders.get(charset);
  if (!decoder) {
    decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: false });
    decoders.set(charset, decoder);
  }
  const text = decoder.decode(bytes);
  // The WHATWG single-byte tables map the bytes a charset leaves undefined (0x81 in
  // Windows-1250, 0x80–0x9F in ISO-8859-2) to C1 controls instead of failing: no text has them.

  if (charset !== 'utf-8' && /[\u0080-\u009f]/.test(text)) {
    throw new TypeError(`byte not defined in ${charset}`);
  }
  return text;
}

const encodeTables = new Map<Charset, Map<string, number>>();

/**
 * Encodes text in a charset. Node encodes only UTF-8 and latin1, so single-byte charsets are
 * encoded through the reverse of their decoding table; a character the charset lacks becomes
 * `?` (an ACK carries only our ASCII texts and what the message itself sent).
 */
export function encodeIn(text: string, charset: Charset): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  let table = encodeTables.get(charset);
  if (!table) {
    table = new Map();
    for (let byte = 0; byte < 256; byte++) {
      if (charset === 'us-ascii' && byte > 0x7f) break;
      let char: string;
      try {
        char = decodeStrict(Buffer.from([byte]), charset);
      } catch {
        continue;
      }
      if (!table.has(char)) table.set(char, byte);
    }
    encodeTables.set(charset, table);
  }
  const bytes: number[] = [];
  for (const char of text) bytes.push(table.get(char) ?? 0x3f);
  return Buffer.from(bytes);
}

/**
 * One segment split into its raw fields (still escaped). `field(n)` is HL7's field n: for MSH,
 * MSH-1 is the field separator and MSH-2 the encoding characters, as the standard counts them.
 * A plain splitter: @medplum/core's objects cost a third of a second for a 10,000-result message.
 */
export class Er7Segment {
  readonly name: string;
  private readonly fields: string[];

  constructor(
    readonly raw: string,
    readonly separators: Separators,
  ) {
    const parts = raw.split(separators.field);
    this.name = parts[0] ?? '';
    this.fields = this.name === 'MSH' ? ['MSH', separators.field, ...parts.slice(1)] : parts;
  }

  /** The number of fields the segment carries (MSH counts MSH-1). */
  get fieldCount(): number {
    return this.fields.length - 1;
  }

  /** Field n as received (raw ER7), '' when absent. */
  field(index: number): string {
    return this.fields[index] ?? '';
  }

  /** The repetitions of field n, each split into its components (raw). */
  repetitions(index: number): string[][] {
    const value = this.field(index);
    if (this.name === 'MSH' && index <= 2) return [[value]];
    return value
      .split(this.separators.repetition)
      .map((repetition) => repetition.split(this.separators.component));
  }

  /** Component c (1-based) of the first repetition of field n, raw. */
  component(index: number, component = 1): string {
    const value = this.field(index);
    if (this.name === 'MSH' && index <= 2) return component === 1 ? value : '';
    const first = value.split(this.separators.repetition, 1)[0] ?? '';
    return first.split(this.separators.component)[component - 1] ?? '';
  }
}

/** The segments of a message: split at CR or LF (both seen on the wire), empty lines dropped. */
export function splitEr7(text: string, separators: Separators): Er7Segment[] {
  return text
    .split(/[\r\n]+/)
    .filter((line) => line.trim() !== '')
    .map((line) => new Er7Segment(line, separators));
}
