import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import pl from '../../i18n/pl.json';
import {
  AUDITED_ENTITIES,
  NAMED_COLUMNS,
  auditValue,
  isAuditedEntity,
  referenceName,
} from './audit-labels';

const words = { yes: 'Tak', no: 'Nie' };

describe('audit labels', () => {
  it('names every audited table as the spec does', () => {
    expect(pl.audit.entities).toEqual({
      patients: 'Dane pacjenta',
      patient_inclusions: 'Kryteria włączenia',
      patient_medicines: 'Leki',
      patient_additional_medicines: 'Inne leki',
      notes: 'Komentarze',
      files: 'Załączniki',
      messages: 'Komunikaty',
      probes: 'Próbki',
      probe_medicines: 'Stężenia leków w próbce',
      safety_alerts: 'Alerty bezpieczeństwa',
    });
    expect(Object.keys(en.audit.entities).sort()).toEqual([...AUDITED_ENTITIES].sort());
    expect(isAuditedEntity('visits')).toBe(false);
  });

  it('has a translation for every named column in both languages', () => {
    expect(Object.keys(pl.audit.columns).sort()).toEqual([...NAMED_COLUMNS].sort());
    expect(Object.keys(en.audit.columns).sort()).toEqual([...NAMED_COLUMNS].sort());
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
});

describe('reference names and decimals', () => {
  const names = { medicine_id: new Map([['13', 'walsartan']]) };

  it('shows the name behind a known id, and nothing for other columns or unknown ids', () => {
    expect(referenceName('medicine_id', '13', names)).toBe('walsartan (13)');
    expect(referenceName('medicine_id', '99', names)).toBeUndefined();
    expect(referenceName('dose', '13', names)).toBeUndefined();
    expect(referenceName('medicine_id', null, names)).toBeUndefined();
  });

  it('writes decimals with the language separator', () => {
    const words = { yes: 'Tak', no: 'Nie' };
    expect(auditValue('12.5', words, 'pl')).toBe('12,5');
    expect(auditValue('12.5', words, 'en')).toBe('12.5');
    expect(auditValue('160', words, 'pl')).toBe('160');
  });
});
