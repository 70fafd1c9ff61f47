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
  isSingleLine,
  multilineText,
  onlyNotFound,
  optionalMultilineText,
  optionalText,
  pathIdField,
  queryIdField,
  requiredId,
  requiredMultilineText,
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
  it('in a multi-line text are every C0 and C1 character but tab, line feed and carriage return', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const ch = String.fromCharCode(c);
      const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
      const allowed = ch === '\t' || ch === '\n' || ch === '\r';
      expect(hasControlCharacters(`a${ch}b`), `U+${c.toString(16)}`).toBe(control && !allowed);
    }
  });

  it('in a single-line text are every C0 and C1 character, and the line separators', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
      expect(isSingleLine(`a${String.fromCharCode(c)}b`), `U+${c.toString(16)}`).toBe(!control);
    }
    expect(isSingleLine('a\u2028b')).toBe(false);
    expect(isSingleLine('a\u2029b')).toBe(false);
    expect(isSingleLine('Łódź, ul. Długa 5/2 – „Poradnia”')).toBe(true);
  });

  it('are refused by every single-line builder with "single_line" alone', () => {
    for (const schema of [text(), requiredText(), optionalText(), secretText()]) {
      for (const bad of ['Jan\u0000', 'P-1\r', 'P\n1', 'P\t1', 'P\u0085', 'P\u2028'])
        expect(codes(schema, bad), JSON.stringify(bad)).toEqual(['single_line']);
      expect(codes(schema, `\u001b${'x'.repeat(STRING_MAX + 10)}`)).toEqual(['single_line']);
    }
    // Checked as sent: a trailing line break is refused, not trimmed away.
    expect(codes(requiredText(), 'Kowalski\n')).toEqual(['single_line']);
  });

  it('but tab, line feed and carriage return are kept by the multi-line builders', () => {
    for (const schema of [multilineText(), requiredMultilineText(), optionalMultilineText()]) {
      expect(codes(schema, 'Ból głowy\r\nod rana\tsilny')).toEqual([]);
      expect(codes(schema, 'Jan\u0000')).toEqual(['invalid']);
    }
    expect(requiredMultilineText().parse(' a\nb\n ')).toBe('a\nb');
  });

  it('are refused in request schemas of every kind', () => {
    const nul = 'a\u0000';
    expect(codes(loginBody, { login: nul, password: 'x' })).toEqual(['single_line']);
    expect(codes(loginBody, { login: 'x', password: nul })).toEqual(['single_line']);
    expect(codes(unitBody.shape.name, nul)).toEqual(['single_line']);
    expect(codes(noteBody.shape.content, `<p>${nul}</p>`)).toEqual(['invalid']);
    expect(codes(pagedListQuery(['id']).shape.search, nul)).toEqual(['single_line']);
    expect(codes(patientListQuery.shape.search, nul)).toEqual(['single_line']);
    expect(codes(peselQuery.shape.pesel, nul)).toEqual(['single_line']);
    expect(codes(fileUploadFields.shape.comment, nul)).toEqual(['invalid']);
    expect(codes(settingParams.shape.name, nul)).toEqual(['single_line']);
    expect(codes(synevoValue, { login: nul, unit_code: '', enable_results_import: false })).toEqual(
      ['single_line'],
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
    for (const id of ['2147483648', '99999999999999999999']) {
      expect(codes(queryIdField(), id)).toEqual(['not_found']);
      expect(codes(pathIdField(), id)).toEqual(['not_found']);
    }
    for (const id of [2 ** 31, 1e20]) expect(codes(idField(), id)).toEqual(['not_found']);
    expect(queryIdField().parse(String(ID_MAX))).toBe(ID_MAX);
    expect(pathIdField().parse(String(ID_MAX))).toBe(ID_MAX);
    expect(idField().parse(ID_MAX)).toBe(ID_MAX);
    expect(codes(queryIdField(), 'abc')).toEqual(['invalid']);
    expect(codes(queryIdField('required'), '0')).toEqual(['required']);
    expect(codes(idListField(), '1,2147483648')).toEqual(['not_found']);
    expect(idListField().parse('1,2')).toEqual([1, 2]);
  });

  const notPlainDigits = [
    '1\r\n',
    '1.0',
    '+1',
    '0x1',
    '1e0',
    ' 1',
    '1 ',
    '01',
    '0',
    '-1',
    '',
    '１',
  ];

  it('in a path are plain digits: any other spelling names no row (not_found, 404)', () => {
    expect(pathIdField().parse('1')).toBe(1);
    expect(pathIdField().parse('90210')).toBe(90210);
    for (const id of notPlainDigits)
      expect(codes(pathIdField(), id), JSON.stringify(id)).toEqual(['not_found']);
  });

  it("in a query string or a multipart field are plain digits too, else the field's code", () => {
    expect(queryIdField().parse('12')).toBe(12);
    for (const id of notPlainDigits)
      expect(codes(queryIdField(), id), JSON.stringify(id)).toEqual(['invalid']);
  });

  it("in a JSON body are numbers: a string is a wrong type, nothing sent is the field's code", () => {
    expect(idField().parse(5)).toBe(5);
    for (const id of ['5', '1', 'abc', true, {}])
      expect(codes(idField(), id)).toEqual(['invalid_number']);
    for (const id of [undefined, null, '']) expect(codes(requiredId(), id)).toEqual(['required']);
    for (const id of [0, -1, 1.5]) expect(codes(requiredId(), id)).toEqual(['required']);
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
