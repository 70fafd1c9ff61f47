import bwipjs from 'bwip-js';
import type { Database } from '../../db/client.js';
import { invalid } from '../../lib/errors.js';
import { fonts, pdfToBuffer } from '../../lib/pdf.js';
import type { Actor } from '../../plugins/policy.js';
import { findReachableProbe } from '../../policies/probes.js';

/** What a label shows: the place and material words, and the code (design §5 "Labels"). */
export interface LabelFacts {
  code: string;
  type_of_material: 'venous' | 'capillary';
  collect_place: 'clinic' | 'home';
}

/** "POR - ŻYL", "DOM - WŁO", … (spec §9). */
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

/**
 * One ZPL label printed `amount` times (^PQ). An amount of 0 prints nothing: the answer is empty
 * rather than a ^PQ0, which some firmware reads as "one".
 */
export function labelZpl(facts: LabelFacts, amount: number): string {
  if (amount === 0) return '';
  return [
    '^XA',
    '^CI28',
    `^PW${ZPL_WIDTH}`,
    `^LL${ZPL_HEIGHT}`,
    '^LH0,0',
    // DataMatrix (ECC 200), 6-dot modules: a 16-character code fits in about 130 dots.
    `^FO16,24^BXN,6,200^FH^FD${zplFieldData(facts.code)}^FS`,
    `^FO170,40^A0N,32,32^FH^FD${zplFieldData(labelHeading(facts))}^FS`,
    `^FO170,100^FB222,2,0,L^A0N,28,28^FH^FD${zplFieldData(facts.code)}^FS`,
    `^PQ${amount},0,1,Y`,
    '^XZ',
    '',
  ].join('\n');
}

const MM = 72 / 25.4;
/** 50 × 25 mm in PDF points. */
export const LABEL_PAGE = { width: 50 * MM, height: 25 * MM };

/** The DataMatrix of a code as a PNG (bwip-js; 1 module = 4 px keeps it sharp when scaled). */
export function dataMatrixPng(code: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'datamatrix', text: code, scale: 4, paddingwidth: 0 });
}

/**
 * A PDF sheet with `amount` labels, one per 50 × 25 mm page: the DataMatrix on the left, the
 * heading and the code beside it. A PDF needs a page, so an amount of 0 is refused (422).
 */
export async function labelPdf(facts: LabelFacts, amount: number): Promise<Buffer> {
  if (amount === 0) throw invalid({ amount: ['implausible_value'] });
  const [{ default: PDFDocument }, png] = await Promise.all([
    import('pdfkit'),
    dataMatrixPng(facts.code),
  ]);
  const doc = new PDFDocument({
    size: [LABEL_PAGE.width, LABEL_PAGE.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: `Etykiety ${facts.code}`, Creator: 'Portal badania' },
  });
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('mono', fonts.mono);
  const pad = 2 * MM;
  const codeSize = LABEL_PAGE.height - 2 * pad;
  const textX = pad + codeSize + 2 * MM;
  const textWidth = LABEL_PAGE.width - textX - pad;
  const heading = labelHeading(facts);
  for (let page = 0; page < amount; page++) {
    doc.addPage({ size: [LABEL_PAGE.width, LABEL_PAGE.height], margin: 0 });
    doc.image(png, pad, pad, { fit: [codeSize, codeSize] });
    doc
      .font('bold')
      .fontSize(9)
      .text(heading, textX, pad + 2 * MM, {
        width: textWidth,
        lineBreak: false,
      });
    doc
      .font('mono')
      .fontSize(facts.code.length > 14 ? 6 : 8)
      .text(facts.code, textX, pad + 8 * MM, { width: textWidth });
  }
  return pdfToBuffer(doc);
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
