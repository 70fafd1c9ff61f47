/**
 * The shared builders against hostile values (issue 7): control characters, ids beyond any row,
 * impossible days and too-long values, in the builders and in the request schemas built on them.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { STRING_MAX } from './constants.js';
import { changePasswordBody, credentialsSheetBody, loginBody } from './schemas/auth.js';
import { pagedListQuery } from './schemas/common.js';
import { auditQuery, fileUploadFields, noteBody } from './schemas/patient-records.js';
import { patientListQuery, peselQuery } from './schemas/patients.js';
import { settingParams, synevoValue } from './schemas/settings.js';
import { unitBody } from './schemas/units.js';
import {
  ID_MAX,
  dayField,
  hasControlCharacters,
  idField,
  idListField,
  onlyNotFound,
  optionalText,
  requiredText,
  secretText,
  text,
  validationMessage,
} from './validation.js';

function codes(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('control characters', () => {
  it('are every C0 and C1 character but tab, line feed and carriage return', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const ch = String.fromCharCode(c);
      const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
      const allowed = ch === '\t' || ch === '\n' || ch === '\r';
      expect(hasControlCharacters(`a${ch}b`), `U+${c.toString(16)}`).toBe(control && !allowed);
    }
  });

  it('are refused by every text builder with "invalid" alone', () => {
    for (const schema of [text(), requiredText(), optionalText(), secretText()]) {
      expect(codes(schema, 'Jan\u0000')).toEqual(['invalid']);
      expect(codes(schema, `\u001b${'x'.repeat(STRING_MAX + 10)}`)).toEqual(['invalid']);
    }
    expect(codes(requiredText(), 'Poradnia\tnr\n2')).toEqual([]);
  });

  it('are refused in request schemas of every kind', () => {
    const nul = 'a\u0000';
    expect(codes(loginBody, { login: nul, password: 'x' })).toEqual(['invalid']);
    expect(codes(loginBody, { login: 'x', password: nul })).toEqual(['invalid']);
    expect(codes(unitBody.shape.name, nul)).toEqual(['invalid']);
    expect(codes(noteBody.shape.content, `<p>${nul}</p>`)).toEqual(['invalid']);
    expect(codes(pagedListQuery(['id']).shape.search, nul)).toEqual(['invalid']);
    expect(codes(patientListQuery.shape.search, nul)).toEqual(['invalid']);
    expect(codes(peselQuery.shape.pesel, nul)).toEqual(['invalid']);
    expect(codes(fileUploadFields.shape.comment, nul)).toEqual(['invalid']);
    expect(codes(settingParams.shape.name, nul)).toEqual(['invalid']);
    expect(codes(synevoValue, { login: nul, unit_code: '', enable_results_import: false })).toEqual(
      ['invalid'],
    );
  });
});

describe('too long', () => {
  it('says "Wartość tego pola jest za długa", never "required"', () => {
    const long = 'x'.repeat(STRING_MAX + 1);
    expect(validationMessage('too_long')).toBe('Wartość tego pola jest za długa');
    expect(codes(loginBody, { login: long, password: 'x' })).toEqual(['too_long']);
    expect(codes(loginBody, { login: 'x', password: long })).toEqual(['too_long']);
    expect(
      codes(changePasswordBody, {
        oldPassword: long,
        newPassword: 'Nowe-Haslo-1',
        passwordConfirm: 'Nowe-Haslo-1',
      }),
    ).toEqual(['too_long']);
    expect(codes(credentialsSheetBody, { login: long, password: 'x', kind: 'doctor' })).toEqual([
      'too_long',
    ]);
    expect(codes(patientListQuery.shape.search, long)).toEqual(['too_long']);
    expect(codes(requiredText(), long)).toEqual(['too_long']);
  });
});

describe('ids', () => {
  it('beyond 2³¹−1 are not_found, whatever their form', () => {
    for (const id of ['2147483648', '99999999999999999999', 2 ** 31, 1e20])
      expect(codes(idField(), id)).toEqual(['not_found']);
    expect(codes(idField('invalid', false), 1e20)).toEqual(['not_found']);
    expect(idField().parse(String(ID_MAX))).toBe(ID_MAX);
    expect(codes(idField(), 'abc')).toEqual(['invalid']);
    expect(codes(idField('required'), '0')).toEqual(['required']);
    expect(codes(idListField(), '1,2147483648')).toEqual(['not_found']);
    expect(idListField().parse('1,2')).toEqual([1, 2]);
  });

  it('answer 404 only when nothing else is wrong', () => {
    expect(onlyNotFound([{ message: 'not_found' }])).toBe(true);
    expect(onlyNotFound([{ message: 'not_found' }, { message: 'required' }])).toBe(false);
    expect(onlyNotFound([])).toBe(false);
  });
});

describe('days', () => {
  it('refuse year 0, month 13 and 30 February', () => {
    for (const day of ['0000-01-01', '2026-13-01', '2026-02-30', '2026-1-1'])
      expect(codes(dayField(), day), day).toEqual(['invalid_date']);
    expect(codes(dayField(), '2024-02-29')).toEqual([]);
    expect(codes(auditQuery, { from_date: '0000-06-15' })).toEqual(['invalid_date']);
  });
});
