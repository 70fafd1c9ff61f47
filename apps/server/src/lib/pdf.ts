import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const fontDir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/** DejaVu carries every Polish letter (ą ć ę ł ń ó ś ź ż); the PDF standard fonts do not. */
export const fonts = {
  regular: path.join(fontDir, 'DejaVuSans.ttf'),
  bold: path.join(fontDir, 'DejaVuSans-Bold.ttf'),
  mono: path.join(fontDir, 'DejaVuSansMono.ttf'),
};

/**
 * An A4 document with the embedded fonts registered; the caller writes and ends it. pdfkit (with
 * its font parser) is loaded on the first document, not at start: it cost about a tenth of a
 * second of every start for a screen few requests reach (ADR 020).
 */
export async function newPdf(title: string): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: title, Creator: 'Portal badania' },
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('mono', fonts.mono);
  doc.font('regular');
  return doc;
}

/** Collects a finished document into one buffer (credential sheets are a few kilobytes). */
export function pdfToBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
