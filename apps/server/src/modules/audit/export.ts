import { reasonLabels } from '@portal/shared';
import type { AuditEntry, AuditQuery } from '@portal/shared';
import type { Database } from '../../db/client.js';
import { newPdf, pdfToBuffer } from '../../lib/pdf.js';
import { listAudit } from './service.js';

/** The most entries one export holds; a longer trail is exported by patient or date range. */
export const EXPORT_MAX = 100_000;
const EXPORT_PAGE = 1000;

/** Every entry the list's filters select, newest first, as the screen pages them. */
async function exportedEntries(db: Database, query: AuditQuery): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  // By key from one page to the next (ADR 022): the hundredth page costs what the first does.
  let after: number | undefined;
  while (entries.length < EXPORT_MAX) {
    const { data } = await listAudit(db, {
      ...query,
      limit: EXPORT_PAGE,
      page: 1,
      ...(after !== undefined ? { after } : {}),
    });
    entries.push(...data);
    if (data.length < EXPORT_PAGE) break;
    after = data.at(-1)!.id;
  }
  return entries.slice(0, EXPORT_MAX);
}

const OPERATIONS: Record<string, string> = {
  insert: 'Dodanie',
  update: 'Zmiana',
  delete: 'Usunięcie',
};

const warsaw = new Intl.DateTimeFormat('pl-PL', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** One entry as a reader sees it: names for ids, the reason in words (Polish, ADR 049). */
function readable(entry: AuditEntry): string[] {
  const reason = entry.reason
    ? [reasonLabels.pl[entry.reason.code], entry.reason.text].filter(Boolean).join(': ')
    : '';
  return [
    String(entry.id),
    warsaw.format(new Date(entry.updated_at)),
    entry.user.name ?? entry.user.login ?? (entry.source ? `system (${entry.source})` : ''),
    entry.patient ? `${entry.patient.surname} ${entry.patient.firstname}` : '',
    entry.record ? `${entry.entity_name}: ${entry.record}` : entry.entity_name,
    entry.column_name,
    OPERATIONS[entry.operation] ?? entry.operation,
    entry.old_name ?? entry.old_value ?? '',
    entry.new_name ?? entry.new_value ?? '',
    reason,
  ];
}

export const EXPORT_HEADER = [
  'Id',
  'Data i godzina',
  'Użytkownik',
  'Pacjent',
  'Rekord',
  'Pole',
  'Operacja',
  'Stara wartość',
  'Nowa wartość',
  'Powód zmiany',
];

/**
 * A cell a spreadsheet will not run: one starting with = + - @ (or a tab or carriage return,
 * which some read past) is prefixed with an apostrophe (OWASP "CSV injection").
 */
export function safeCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r;]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** The trail as CSV (UTF-8 with a BOM, so that a spreadsheet reads the Polish letters). */
export async function auditCsv(db: Database, query: AuditQuery): Promise<string> {
  const rows = [EXPORT_HEADER, ...(await exportedEntries(db, query)).map(readable)];
  return '\uFEFF' + rows.map((row) => row.map(safeCell).join(',')).join('\r\n') + '\r\n';
}

/** The trail as a PDF: one block per entry (landscape tables do not fit long values). */
export async function auditPdf(db: Database, query: AuditQuery): Promise<Buffer> {
  const entries = await exportedEntries(db, query);
  const doc = await newPdf('Ścieżka audytu');
  doc.font('bold').fontSize(14).text('Ścieżka audytu');
  doc
    .font('regular')
    .fontSize(9)
    .text(`Wygenerowano: ${warsaw.format(new Date())}; wpisów: ${entries.length}`);
  doc.moveDown();
  for (const entry of entries) {
    const cells = readable(entry);
    doc.font('bold').fontSize(9).text(`#${cells[0]}  ${cells[1]}  ${cells[2]}`);
    doc.font('regular').fontSize(8);
    for (let i = 3; i < EXPORT_HEADER.length; i++) {
      if (cells[i]) doc.text(`${EXPORT_HEADER[i]}: ${cells[i]}`);
    }
    doc.moveDown(0.5);
  }
  return pdfToBuffer(doc);
}
