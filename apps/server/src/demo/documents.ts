import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import { files } from '../db/schema.js';
import { newPdf, pdfToBuffer } from '../lib/pdf.js';

/** A one-page PDF with a title and a few paragraphs (Polish letters through DejaVu). */
async function demoPdf(title: string, paragraphs: readonly string[]): Promise<Buffer> {
  const doc = await newPdf(title);
  doc.font('bold').fontSize(16).text(title);
  doc.moveDown();
  doc.font('regular').fontSize(11);
  for (const paragraph of paragraphs) doc.text(paragraph).moveDown(0.5);
  return pdfToBuffer(doc);
}

const text = (lines: readonly string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');

/**
 * Two documents in each panel (a generated PDF and a txt), stored as an administrator's upload
 * would be: no patient, ref_id 0. Answers how many were added.
 */
export async function addDemoDocuments(db: Database, uploadedBy: number): Promise<number> {
  const documents = [
    {
      ref_type: 'doctor_documents',
      original_name: 'Protokół badania – skrót dla lekarzy.pdf',
      mime_type: 'application/pdf',
      content: await demoPdf('Protokół badania – skrót dla lekarzy', [
        'Badanie porównuje leczenie złożonymi preparatami o stałej dawce z leczeniem ' +
          'wieloma tabletkami u pacjentów z nadciśnieniem tętniczym.',
        'Wizyty kontrolne co 28 dni (okno ± 7 dni, po pierwszej wizycie ± 3 dni). Na każdej ' +
          'wizycie EKG (QT, RR, PQ, QRS) i ocena działań niepożądanych.',
        'Próbki krwi: biochemia (ALT, AST, kreatynina, bilirubina) i stężenia leków.',
      ]),
    },
    {
      ref_type: 'doctor_documents',
      original_name: 'Zestaw do pobrania w domu – instrukcja dla koordynatora.txt',
      mime_type: 'text/plain; charset=utf-8',
      content: text([
        'Zestaw do pobrania krwi włośniczkowej w domu pacjenta',
        '',
        '1. Zamówienie zestawu przyjmuje koordynator w zakładce „Zestawy próbek”.',
        '2. Po akceptacji wpisz numer przesyłki każdego zestawu.',
        '3. Etykiety drukuj z karty próbki (drukarka Zebra lub arkusz PDF).',
      ]),
    },
    {
      ref_type: 'patient_documents',
      original_name: 'Informacja dla pacjenta.pdf',
      mime_type: 'application/pdf',
      content: await demoPdf('Informacja dla pacjenta', [
        'Dziękujemy za udział w badaniu. Leki przyjmuj codziennie o tej samej porze.',
        'Przed pobraniem krwi nie przyjmuj porannej dawki leku, chyba że lekarz zaleci inaczej.',
        'W razie pytań zadzwoń do poradni – numer znajdziesz w aplikacji.',
      ]),
    },
    {
      ref_type: 'patient_documents',
      original_name: 'Jak pobrać krew z palca.txt',
      mime_type: 'text/plain; charset=utf-8',
      content: text([
        'Jak pobrać krew z palca',
        '',
        '1. Umyj ręce ciepłą wodą i dokładnie je osusz.',
        '2. Nakłuj boczną część opuszki palca serdecznego nakłuwaczem z zestawu.',
        '3. Napełnij probówkę do kreski, zamknij ją i naklej etykietę.',
        '4. Odeślij zestaw w kopercie zwrotnej tego samego dnia.',
      ]),
    },
  ];
  await inTransaction(db, uploadedBy, (tx) =>
    tx.insert(files).values(
      documents.map((document) => ({
        ...document,
        ref_id: 0,
        patient_id: null,
        size_bytes: document.content.length,
        uploaded_by: uploadedBy,
      })),
    ),
  );
  return documents.length;
}
