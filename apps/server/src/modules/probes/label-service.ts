import bwipjs from 'bwip-js';
import type { Database } from '../../db/client.js';
import { invalid } from '../../lib/errors.js';
import { fonts, pdfToBuffer } from '../../lib/pdf.js';
import type { Actor } from '../../plugins/policy.js';
import { findReachableProbe } from '../../policies/probes.js';

/**
 * What a label shows: the place and material words, and the code (docs/product-rules.md "Labels").
 */
export interface LabelFacts {
  code: string;
  type_of_material: 'venous' | 'capillary';
  collect_place: 'clinic' | 'home';
}

/** "POR - ŻYL", "DOM - WŁO", … (docs/product-rules.md "Labels"). */
export function labelHeading(facts: Pick<LabelFacts, 'type_of_material' | 'collect_place'>) {
  const place = facts.collect_place === 'clinic' ? 'POR' : 'DOM';
  const material = facts.type_of_material === 'venous' ? 'ŻYL' : 'WŁO';
  return `${place} - ${material}`;
}

/**
 * A field's data for ^FH: every byte outside a small safe set goes as `_XX` (hex of its UTF-8
 * bytes), so `^` and `~` in a code can never start a ZPL command and Ż/Ł survive any transport;
 * ^CI28 tells the printer the decoded bytes are UTF-8.
 */
export function zplFieldData(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9 .,:/-]/.test(char)
      ? char
      : `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Label size: 50 × 25 mm at 203 dpi (8 dots per mm). */
const ZPL_WIDTH = 400;
const ZPL_HEIGHT = 200;
/** Where the text column starts (the DataMatrix is left of it) and its width to a 1 mm margin. */
const TEXT_X = 176;
const TEXT_WIDTH = ZPL_WIDTH - 8 - TEXT_X;

/**
 * The printer's own bitmap fonts, whose every character takes a fixed cell (ZPL II manual,
 * "Standard Printer Fonts": F is 26 × 13 dots with a 3-dot gap, D 18 × 10 with 2), so a line's
 * width is known before printing on every Zebra. The scalable font 0 is proportional: how wide
 * a line of "W"s prints is up to the printer, which is how codes got cut at the label's edge.
 */
const FONT_F = { command: '^AFN,26,13', cell: 16, height: 26 } as const;
const FONT_D = { command: '^ADN,18,10', cell: 12, height: 18 } as const;
type BitmapFont = typeof FONT_F | typeof FONT_D;

/**
 * A code split into at most `lines` lines of at most `perLine` characters, or null when it does
 * not fit. A break goes after one of the code's own `-` where one gives lines that fit (the most
 * even such split), else at the middle; the printer is never asked to wrap, so it never cuts or
 * hyphenates a code (ADR 035).
 */
export function splitCode(code: string, perLine: number, lines = 2): string[] | null {
  if (code.length <= perLine) return [code];
  if (lines < 2 || code.length > perLine * lines) return null;
  let best: number | null = null;
  for (let i = 0; i < code.length - 1; i++) {
    if (code[i] !== '-') continue;
    const cut = i + 1;
    if (cut > perLine || code.length - cut > perLine) continue;
    if (best === null || Math.abs(code.length / 2 - cut) < Math.abs(code.length / 2 - best)) {
      best = cut;
    }
  }
  const cut = best ?? Math.ceil(code.length / 2);
  if (cut > perLine || code.length - cut > perLine) return null;
  return [code.slice(0, cut), code.slice(cut)];
}

/** The largest font that shows the code whole in two lines or fewer (32 characters fit in D). */
export function codeLayout(code: string): { font: BitmapFont; lines: string[] } {
  for (const font of [FONT_F, FONT_D]) {
    const lines = splitCode(code, Math.floor(TEXT_WIDTH / font.cell));
    if (lines) return { font, lines };
  }
  // Only a code made before codes were limited to 32 characters (ADR 035) is longer.
  const perLine = Math.floor(TEXT_WIDTH / FONT_D.cell);
  const lines: string[] = [];
  for (let i = 0; i < code.length; i += perLine) lines.push(code.slice(i, i + perLine));
  return { font: FONT_D, lines: lines.slice(0, 4) };
}

/** What one label shows (a sample's or a kit's). */
export interface LabelContent {
  /** The DataMatrix's text, printed below the heading. */
  code: string;
  /** "POR - ŻYL" for a sample; "ZESTAW 1/3" for a kit. */
  heading: string;
  /** A smaller line at the bottom: a kit's participant code. */
  note?: string;
}

/** A sample's label: its heading and code. */
export function sampleLabel(facts: LabelFacts): LabelContent {
  return { code: facts.code, heading: labelHeading(facts) };
}

function textField(x: number, y: number, font: string, value: string): string {
  return `^FO${x},${y}${font}^FH^FD${zplFieldData(value)}^FS`;
}

/** One label's ^XA … ^XZ block printed `amount` times (^PQ). */
function zplBlock(label: LabelContent, amount: number): string[] {
  const { font, lines } = codeLayout(label.code);
  // The heading: font 0 for Ż and Ł (^CI28), which only the four sample headings use (their
  // width is measured in the tests); a kit's heading is ASCII and takes font F's fixed cells.
  const heading = /^[\x20-\x7e]*$/.test(label.heading)
    ? textField(TEXT_X, 20, FONT_F.command, label.heading)
    : textField(TEXT_X, 20, '^A0N,30,30', label.heading);
  const top = label.note === undefined ? 76 : 62;
  const codeLines = lines.map((line, i) =>
    textField(TEXT_X, top + i * (font.height + 6), font.command, line),
  );
  const note =
    label.note === undefined
      ? []
      : [textField(TEXT_X, 160, FONT_D.command, label.note.slice(0, TEXT_WIDTH / FONT_D.cell))];
  return [
    '^XA',
    '^CI28',
    `^PW${ZPL_WIDTH}`,
    `^LL${ZPL_HEIGHT}`,
    '^LH0,0',
    // DataMatrix (ECC 200), 6-dot modules: a 32-character code (24 × 24 modules) takes 144 dots.
    `^FO16,24^BXN,6,200^FH^FD${zplFieldData(label.code)}^FS`,
    heading,
    ...codeLines,
    ...note,
    `^PQ${amount},0,1,Y`,
    '^XZ',
  ];
}

/**
 * Labels as ZPL: each label's block, printed `amount` times (^PQ). An amount of 0 prints
 * nothing: the answer is empty rather than a ^PQ0, which some firmware reads as "one".
 */
export function labelsZpl(labels: readonly LabelContent[], amount: number): string {
  if (amount === 0 || labels.length === 0) return '';
  return [...labels.flatMap((label) => zplBlock(label, amount)), ''].join('\n');
}

/** One sample's label as ZPL (see labelsZpl). */
export function labelZpl(facts: LabelFacts, amount: number): string {
  return labelsZpl([sampleLabel(facts)], amount);
}

const MM = 72 / 25.4;
/** 50 × 25 mm in PDF points. */
export const LABEL_PAGE = { width: 50 * MM, height: 25 * MM };

/** The DataMatrix of a code as a PNG (bwip-js; 1 module = 4 px keeps it sharp when scaled). */
export function dataMatrixPng(code: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'datamatrix', text: code, scale: 4, paddingwidth: 0 });
}

/**
 * A PDF sheet with `amount` pages (50 × 25 mm) for each label: the DataMatrix on the left, the
 * heading, the code (the same lines as on the ZPL label, sized to the column) and the note. A
 * PDF needs a page, so an amount of 0 is refused (422 `pdf_needs_a_label`).
 */
export async function labelsPdf(labels: readonly LabelContent[], amount: number): Promise<Buffer> {
  if (amount === 0 || labels.length === 0) throw invalid({ amount: ['pdf_needs_a_label'] });
  const [{ default: PDFDocument }, pngs] = await Promise.all([
    import('pdfkit'),
    Promise.all(labels.map((label) => dataMatrixPng(label.code))),
  ]);
  const doc = new PDFDocument({
    size: [LABEL_PAGE.width, LABEL_PAGE.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: `Etykiety ${labels[0]!.code}`, Creator: 'Portal badania' },
  });
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('mono', fonts.mono);
  const pad = 2 * MM;
  const codeSize = LABEL_PAGE.height - 2 * pad;
  const textX = pad + codeSize + 2 * MM;
  const textWidth = LABEL_PAGE.width - textX - pad;
  labels.forEach((label, index) => {
    const { lines } = codeLayout(label.code);
    // The mono font's size that makes the longest line exactly as wide as the column, at most 8.
    const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
    const unit = doc.font('mono').fontSize(1).widthOfString(longest);
    const size = Math.min(8, textWidth / unit);
    for (let page = 0; page < amount; page++) {
      doc.addPage({ size: [LABEL_PAGE.width, LABEL_PAGE.height], margin: 0 });
      doc.image(pngs[index]!, pad, pad, { fit: [codeSize, codeSize] });
      doc
        .font('bold')
        .fontSize(9)
        .text(label.heading, textX, pad + 1.5 * MM, { width: textWidth, lineBreak: false });
      lines.forEach((line, i) => {
        doc
          .font('mono')
          .fontSize(size)
          .text(line, textX, pad + 7 * MM + i * (size + 1.5), { lineBreak: false });
      });
      if (label.note !== undefined) {
        const noteSize = Math.min(
          7,
          textWidth / doc.font('mono').fontSize(1).widthOfString(label.note),
        );
        doc
          .font('mono')
          .fontSize(noteSize)
          .text(label.note, textX, LABEL_PAGE.height - pad - noteSize - 1, { lineBreak: false });
      }
    }
  });
  return pdfToBuffer(doc);
}

/** One sample's labels as a PDF (see labelsPdf). */
export function labelPdf(facts: LabelFacts, amount: number): Promise<Buffer> {
  return labelsPdf([sampleLabel(facts)], amount);
}

/** The label facts of a sample the actor reaches (404 otherwise). */
export async function labelFactsOf(db: Database, actor: Actor, id: number): Promise<LabelFacts> {
  const probe = await findReachableProbe(db, actor, id);
  return {
    code: probe.code,
    type_of_material: probe.type_of_material,
    collect_place: probe.collect_place,
  };
}

/** A download name safe in a header: the code's letters and digits only. */
export function labelFileName(code: string, extension: 'pdf' | 'zpl'): string {
  return `etykiety-${code.replace(/[^A-Za-z0-9_-]/g, '_')}.${extension}`;
}
