import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STRING_MAX } from './constants.js';
import {
  emailField,
  isValidationCode,
  issuesByField,
  optionalText,
  phoneField,
  requiredId,
  requiredText,
  validationMessage,
  validationMessages,
} from './validation.js';

/** The message codes a schema reports for an input, or the parsed value. */
function codes(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('the message catalogue', () => {
  it('carries the fixed Polish messages', () => {
    expect(validationMessages.pl).toMatchObject({
      required: 'To pole musi być wypełnione',
      too_long: 'Wartość tego pola jest za długa',
      invalid_email: 'To pole musi być poprawnym adresem e-mail',
      invalid: 'Niektóre pola są nieprawidłowe',
      password_same_as_old: 'Pole musi być inne niż stare hasło',
      password_confirm_mismatch: 'Pole musi być takie samo jak nowe hasło.',
      wrong_password: 'Niepoprawne hasło',
      end_before_start: 'To pole musi mieć wartość po lub równą czasie rozpoczęcia',
    });
  });

  it('has every code in English too, and no empty message', () => {
    expect(Object.keys(validationMessages.en).sort()).toEqual(
      Object.keys(validationMessages.pl).sort(),
    );
    for (const locale of ['pl', 'en'] as const) {
      for (const message of Object.values(validationMessages[locale])) {
        expect(message.trim()).not.toBe('');
      }
    }
  });

  it('translates codes and falls back to the generic message', () => {
    expect(validationMessage('required')).toBe('To pole musi być wypełnione');
    expect(validationMessage('required', 'en')).toBe('This field is required');
    expect(validationMessage('no_such_code')).toBe('Niektóre pola są nieprawidłowe');
    expect(isValidationCode('too_long')).toBe(true);
    expect(isValidationCode('toString')).toBe(false);
    expect(isValidationCode('no_such_code')).toBe(false);
  });
});

describe('requiredText', () => {
  it('trims and accepts up to the limit', () => {
    expect(requiredText().parse('  Poradnia  ')).toBe('Poradnia');
    expect(requiredText().parse('a'.repeat(STRING_MAX))).toHaveLength(STRING_MAX);
    expect(requiredText(5).parse('abcde')).toBe('abcde');
  });

  it('requires a value', () => {
    expect(codes(requiredText(), undefined)).toEqual(['required']);
    expect(codes(requiredText(), null)).toEqual(['required']);
    expect(codes(requiredText(), '')).toEqual(['required']);
    expect(codes(requiredText(), '   ')).toEqual(['required']);
  });

  it('refuses a value over the limit', () => {
    expect(codes(requiredText(), 'a'.repeat(STRING_MAX + 1))).toEqual(['too_long']);
    expect(codes(requiredText(5), 'abcdef')).toEqual(['too_long']);
  });
});

describe('optionalText', () => {
  it('turns empty input into null', () => {
    for (const input of [undefined, null, '', '   '])
      expect(optionalText().parse(input)).toBeNull();
    expect(optionalText().parse(' m. 4 ')).toBe('m. 4');
    expect(codes(optionalText(3), 'abcd')).toEqual(['too_long']);
  });
});

describe('emailField', () => {
  it('lower-cases a valid address and refuses an invalid one', () => {
    expect(emailField().parse('  Jan.Kowalski@Szpital.PL ')).toBe('jan.kowalski@szpital.pl');
    expect(codes(emailField(), 'jan.kowalski')).toEqual(['invalid_email']);
    expect(codes(emailField(), 'jan@')).toEqual(['invalid_email']);
    expect(codes(emailField(), '')).toEqual(['required']);
  });
});

describe('phoneField', () => {
  it('keeps the 9 national digits', () => {
    for (const input of [
      '600100200',
      '+48 600 100 200',
      '+48600100200',
      '0048 600-100-200',
      ' 600 100 200 ',
    ]) {
      expect(phoneField().parse(input)).toBe('600100200');
    }
  });

  it('refuses anything else', () => {
    for (const input of ['60010020', '6001002001', '+49 600 100 200', '600 100 20a']) {
      expect(codes(phoneField(), input)).toEqual(['invalid_phone']);
    }
  });

  it('says only "required" for a blank or missing number', () => {
    expect(codes(phoneField(), '')).toEqual(['required']);
    expect(codes(phoneField(), '   ')).toEqual(['required']);
    expect(codes(phoneField(), undefined)).toEqual(['required']);
    // The prefix alone is an empty number.
    expect(codes(phoneField(), '+48')).toEqual(['required']);
  });
});

describe('requiredId', () => {
  it('takes a positive integer, and calls nothing sent or an impossible id missing', () => {
    expect(requiredId().parse(3)).toBe(3);
    for (const input of ['', 0, -1, 1.5, undefined, null]) {
      expect(new Set(codes(requiredId(), input))).toEqual(new Set(['required']));
    }
  });

  it('refuses a number sent as a string like any wrong type', () => {
    expect(codes(requiredId(), '12')).toEqual(['invalid_number']);
    expect(codes(requiredId(), 'abc')).toEqual(['invalid_number']);
  });
});

describe('issuesByField', () => {
  const schema = z
    .object({
      name: requiredText(),
      email: emailField(),
      address: z.object({ city: requiredText() }),
      tags: z.array(requiredText()),
      count: z.number().int().max(10),
    })
    .superRefine((_value, ctx) => {
      ctx.addIssue({ code: 'custom', message: 'end_before_start', path: [] });
    });

  it('groups codes by field path, turning unknown messages into "invalid"', () => {
    const result = schema.safeParse({
      name: '',
      email: 'nope',
      address: { city: '' },
      tags: ['ok', ''],
      count: 11,
    });
    expect(result.success).toBe(false);
    expect(issuesByField(result.error!.issues)).toEqual({
      name: ['required'],
      email: ['invalid_email'],
      'address.city': ['required'],
      'tags.1': ['required'],
      count: ['invalid'],
      _: ['end_before_start'],
    });
  });

  it('puts form-level issues under "_" and lists each code once per field', () => {
    const issues: z.core.$ZodIssue[] = [
      { code: 'custom', message: 'end_before_start', path: [], input: null },
      { code: 'custom', message: 'required', path: ['to'], input: null },
      { code: 'custom', message: 'required', path: ['to'], input: null },
      { code: 'custom', message: 'too_long', path: ['to'], input: null },
    ];
    expect(issuesByField(issues)).toEqual({
      _: ['end_before_start'],
      to: ['required', 'too_long'],
    });
  });
});
