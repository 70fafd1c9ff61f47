import { describe, expect, it } from 'vitest';
import { AUDITED_COLUMNS, AUDITED_ENTITIES, AUDIT_SOURCES } from '@portal/shared';
import type { AuditEntry } from '@portal/shared';
import { resources } from '../../i18n/resources';
import { auditValue, authorOf, columnLabel, columnLabelKey, entryValue } from './audit-labels';

// Each language's whole catalogue, both parts (ADR 019).
const pl = resources.pl.translation;
const en = resources.en.translation;

const words = { yes: 'Tak', no: 'Nie' };

/** A `t` and `exists` over one language's file, as i18next resolves dotted keys. */
function dictionary(file: unknown) {
  const find = (key: string): unknown =>
    key
      .split('.')
      .reduce<unknown>(
        (node, part) =>
          typeof node === 'object' && node !== null && Object.hasOwn(node, part)
            ? (node as Record<string, unknown>)[part]
            : undefined,
        file,
      );
  const exists = (key: string) => typeof find(key) === 'string';
  const t = (key: string) => (exists(key) ? (find(key) as string) : key);
  return { t, exists };
}

const PL = dictionary(pl);
const EN = dictionary(en);

const visibleColumns = AUDITED_ENTITIES.flatMap((entity) =>
  Object.entries(AUDITED_COLUMNS[entity])
    .filter(([, kind]) => kind !== 'hidden')
    .map(([column]) => [entity, column] as const),
);

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id: 1,
    updated_at: '2026-11-27T10:00:00Z',
    user: { login: null, name: null },
    source: null,
    record: null,
    patient: null,
    entity_name: 'probes',
    column_name: 'code',
    old_value: null,
    new_value: null,
    old_name: null,
    new_name: null,
    operation: 'update',
    reason: null,
    ...overrides,
  };
}

describe('the audit trail labels', () => {
  it('names every audited table in both languages', () => {
    expect(Object.keys(pl.audit.entities).sort()).toEqual([...AUDITED_ENTITIES].sort());
    expect(Object.keys(en.audit.entities).sort()).toEqual([...AUDITED_ENTITIES].sort());
    expect(pl.audit.entities.probes).toBe('Próbki');
  });

  it('labels every shown column of every audited table in Polish and English', () => {
    for (const { exists } of [PL, EN]) {
      const missing = visibleColumns.filter(
        ([entity, column]) => !exists(columnLabelKey(entity, column, exists)),
      );
      expect(missing).toEqual([]);
    }
    expect(columnLabel('probes', 'results_source', PL.t, PL.exists)).toBe('Źródło wyników');
    expect(columnLabel('probes', 'status', PL.t, PL.exists)).toBe('Status próbki');
    expect(columnLabel('safety_alerts', 'acknowledged_by', PL.t, PL.exists)).toBe('Potwierdził');
    expect(columnLabel('probes', 'lab_ranges', EN.t, EN.exists)).toBe(
      "Laboratory's reference ranges",
    );
  });

  it('keeps no label for a column nobody sees', () => {
    const shown = new Set(visibleColumns.map(([, column]) => column));
    expect(Object.keys(pl.audit.columns).filter((column) => !shown.has(column))).toEqual([]);
    expect(Object.keys(en.audit.columns).sort()).toEqual(Object.keys(pl.audit.columns).sort());
  });

  it('names every source in both languages', () => {
    for (const source of AUDIT_SOURCES) {
      expect(PL.exists(`audit.sources.${source}`), source).toBe(true);
      expect(EN.exists(`audit.sources.${source}`), source).toBe(true);
    }
    expect(pl.audit.sources.hl7).toBe('Laboratorium (HL7)');
    expect(pl.audit.sources.manual_match).toBe('Ręczne dopasowanie wyniku');
  });
});

describe('entryValue', () => {
  const pl = { ...PL, language: 'pl' };
  const en = { ...EN, language: 'en' };

  it('words statuses and coded values in the reader’s language', () => {
    const status = entry({ column_name: 'status', old_value: 'sent', new_value: 'received' });
    expect(`${entryValue(status, 'old', pl)} → ${entryValue(status, 'new', pl)}`).toBe(
      'wysłana → odebrana',
    );
    expect(entryValue(status, 'new', en)).toBe('received');
    const material = entry({ column_name: 'type_of_material', new_value: 'venous' });
    expect(entryValue(material, 'new', pl)).toBe('krew żylna');
    const order = entry({ entity_name: 'probe_sets', column_name: 'status', new_value: '2' });
    expect(entryValue(order, 'new', pl)).toBe('odrzucone');
  });

  it('shows the names the server resolved for ids, never the ids', () => {
    const acknowledged = entry({
      entity_name: 'safety_alerts',
      column_name: 'acknowledged_by',
      new_value: '2',
      new_name: 'Nowak Anna',
    });
    expect(entryValue(acknowledged, 'new', pl)).toBe('Nowak Anna');
    expect(entryValue({ ...acknowledged, new_name: null }, 'new', pl)).toBe('(nieznany)');
    expect(entryValue(acknowledged, 'old', pl)).toBe('-');
  });

  it('writes booleans, days, times and laboratory ranges as text', () => {
    expect(entryValue(entry({ column_name: 'is_cito', new_value: 'true' }), 'new', pl)).toBe('Tak');
    expect(
      entryValue(entry({ column_name: 'date_of_sample', new_value: '2026-11-27' }), 'new', pl),
    ).toBe('27.11.2026');
    expect(
      entryValue(
        entry({ entity_name: 'visits', column_name: 'started_at', new_value: '08:30:00' }),
        'new',
        pl,
      ),
    ).toBe('08:30');
    const ranges = entry({
      column_name: 'lab_ranges',
      new_value: JSON.stringify({
        alt: { text: '10-40', min: 10, max: 40, unit: 'U/L' },
        bilirubine: { text: '', min: 0.2, max: 1.2, unit: null },
      }),
    });
    expect(entryValue(ranges, 'new', pl)).toBe('ALT: 10-40 U/L; Bilirubina: 0,2–1,2');
    const comments = entry({
      column_name: 'lab_comments',
      new_value: JSON.stringify({ sample: 'Hemoliza', results: { alt: 'Powtórzyć' } }),
    });
    expect(entryValue(comments, 'new', pl)).toBe('Hemoliza; ALT: Powtórzyć');
  });
});

describe('authorOf', () => {
  it('names the person, and the laboratory or the import where no person wrote it', () => {
    expect(authorOf(entry({ source: 'hl7' }), PL.t)).toEqual({
      name: 'Laboratorium (HL7)',
      source: null,
    });
    expect(
      authorOf(entry({ user: { login: 'admin', name: 'admin' }, source: 'manual_match' }), PL.t),
    ).toEqual({ name: 'admin', source: 'Ręczne dopasowanie wyniku' });
    expect(authorOf(entry({ user: { login: 'j.k', name: 'Kowalski Jan' } }), PL.t)).toEqual({
      name: 'Kowalski Jan',
      source: null,
    });
    expect(authorOf(entry({}), PL.t).name).toBe('System');
  });
});

describe('auditValue', () => {
  it('shows empty values as a dash', () => {
    expect(auditValue(null, words)).toBe('-');
    expect(auditValue('', words)).toBe('-');
    expect(auditValue('  ', words)).toBe('-');
  });

  it('turns booleans into words', () => {
    expect(auditValue('true', words)).toBe('Tak');
    expect(auditValue('false', words)).toBe('Nie');
  });

  it('formats instants in Warsaw time and calendar days as DD.MM.YYYY', () => {
    expect(auditValue('2026-03-10T12:05:00.123456+00:00', words)).toBe('10.03.2026 13:05');
    expect(auditValue('2026-07-10T22:30:00Z', words)).toBe('11.07.2026 00:30');
    expect(auditValue('1944-05-14', words)).toBe('14.05.1944');
  });

  it('shows rich text as plain text and other values as they are', () => {
    expect(auditValue('<p>Dawka <strong>zwiększona</strong> &amp; OK</p>', words)).toBe(
      'Dawka zwiększona & OK',
    );
    expect(auditValue('<p></p>', words)).toBe('-');
    expect(auditValue('a < b', words)).toBe('a < b');
    expect(auditValue('44051401359', words)).toBe('44051401359');
    expect(auditValue('72.5', words)).toBe('72,5');
  });

  it('writes decimals with the language separator', () => {
    expect(auditValue('12.5', words, 'pl')).toBe('12,5');
    expect(auditValue('12.5', words, 'en')).toBe('12.5');
    expect(auditValue('160', words, 'pl')).toBe('160');
  });
});
