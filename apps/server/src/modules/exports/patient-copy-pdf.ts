import type { PatientCopy } from '@portal/shared';
import { newPdf, pdfToBuffer } from '../../lib/pdf.js';

/**
 * The patient's copy as a readable PDF in Polish (ADR 054): the same sections and values as the
 * JSON, one record after another, each field with a Polish name where the portal has one (the
 * column's own name otherwise, so that nothing stored is left out of the printout).
 */

const SECTIONS: [keyof PatientCopy, string][] = [
  ['patient', 'Dane osobowe'],
  ['account', 'Konto w portalu'],
  ['inclusion', 'Włączenie do badania'],
  ['medicines', 'Leki badania'],
  ['additional_medicines', 'Leki dodatkowe'],
  ['visits', 'Wizyty (z EKG)'],
  ['samples', 'Próbki i wyniki'],
  ['safety_alerts', 'Alerty bezpieczeństwa'],
  ['kit_orders', 'Zamówienia zestawów'],
  ['notes', 'Notatki'],
  ['messages', 'Wiadomości'],
  ['files', 'Pliki (lista)'],
  ['audit', 'Historia zmian (audyt)'],
  ['access_log', 'Dziennik dostępu (kto odczytał dane)'],
];

const LABELS: Record<string, string> = {
  id: 'Identyfikator',
  study_subject_id: 'Identyfikator uczestnika badania',
  firstname: 'Imię',
  surname: 'Nazwisko',
  pesel: 'PESEL',
  sex: 'Płeć',
  birth_date: 'Data urodzenia',
  address_street: 'Ulica',
  address_building: 'Numer domu',
  address_apartment: 'Numer mieszkania',
  address_postcode: 'Kod pocztowy',
  address_city: 'Miejscowość',
  phone_number: 'Telefon',
  email: 'E-mail',
  weight: 'Masa ciała (kg)',
  height: 'Wzrost (cm)',
  project_number: 'Numer uczestnika',
  is_above_18: 'Pełnoletni',
  is_classified: 'Zakwalifikowany',
  is_finished: 'Udział zakończony',
  acceptance: 'Zgoda',
  unit: 'Ośrodek',
  doctor: 'Lekarz',
  exclusion_criterion: 'Kryterium wykluczenia',
  login: 'Login',
  role: 'Rola',
  group: 'Grupa',
  subgroup: 'Podgrupa',
  dose: 'Dawka',
  interval: 'Odstęp',
  name: 'Nazwa',
  inn: 'Substancja',
  date: 'Data',
  started_at: 'Początek',
  ended_at: 'Koniec',
  is_done: 'Odbyta',
  comment: 'Komentarz',
  qt: 'QT (ms)',
  rr: 'RR (ms)',
  pq: 'PQ (ms)',
  qrs: 'QRS (ms)',
  qtcb: 'QTcB (ms)',
  qtcfra: 'QTcF (ms)',
  out_of_window: 'Poza oknem wizyty',
  window_reason: 'Powód',
  notes: 'Notatki',
  cancelled_at: 'Odwołana',
  code: 'Numer próbki',
  type_of_material: 'Rodzaj materiału',
  date_of_sample: 'Data pobrania',
  alt: 'ALT (U/l)',
  ast: 'AST (U/l)',
  creatine: 'Kreatynina (mg/dl)',
  bilirubine: 'Bilirubina (mg/dl)',
  concentration: 'Stężenie (ng/ml)',
  concentration_hours: 'Godziny od dawki',
  concentration_date_of_analysis: 'Data analizy',
  medicines: 'Leki',
  status: 'Status',
  content: 'Treść',
  read_at: 'Przeczytano',
  original_name: 'Nazwa pliku',
  mime_type: 'Typ',
  size_bytes: 'Rozmiar (bajty)',
  created_at: 'Utworzono',
  updated_at: 'Zmieniono',
  deleted_at: 'Usunięto',
  entity_name: 'Rekord',
  column_name: 'Pole',
  operation: 'Operacja',
  old_value: 'Było',
  new_value: 'Jest',
  street: 'Ulica',
  building: 'Numer domu',
  postcode: 'Kod pocztowy',
  city: 'Miejscowość',
  amount: 'Liczba zestawów',
};

function text(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === true) return 'tak';
  if (value === false) return 'nie';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(text).join('; ');
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => v !== null && v !== undefined,
    );
    return entries.map(([k, v]) => `${LABELS[k] ?? k}: ${text(v)}`).join(', ');
  }
  return JSON.stringify(value);
}

function record(doc: PDFKit.PDFDocument, row: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(row)) {
    if (value === null || value === undefined) continue;
    doc
      .font('bold')
      .fontSize(9)
      .text(`${LABELS[key] ?? key}: `, { continued: true })
      .font('regular')
      .text(text(value));
  }
  doc.moveDown(0.5);
}

export async function patientCopyPdf(copy: PatientCopy): Promise<Buffer> {
  const doc = await newPdf('Kopia danych pacjenta');
  doc.font('bold').fontSize(16).text('Kopia danych pacjenta');
  doc
    .font('regular')
    .fontSize(9)
    .text(
      `Wszystkie dane zapisane w portalu badania o pacjencie (art. 15 i 20 RODO). Utworzono: ${copy.generated_at}.`,
    );
  doc.moveDown();
  for (const [key, title] of SECTIONS) {
    const value = copy[key];
    doc.font('bold').fontSize(12).text(title);
    doc.moveDown(0.3);
    const rows: Record<string, unknown>[] = Array.isArray(value)
      ? value
      : value && typeof value === 'object'
        ? [value]
        : [];
    if (rows.length === 0) doc.font('regular').fontSize(9).text('Brak.').moveDown(0.5);
    for (const row of rows) record(doc, row);
    doc.moveDown(0.5);
  }
  return pdfToBuffer(doc);
}
