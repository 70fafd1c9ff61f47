import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { errorsByInput, translateCodes } from './use-zod-form';

// The catalogue's lookup, reduced to naming the key it was asked for.
const t = ((key: string) => `[${key}]`) as unknown as TFunction;

describe('form messages', () => {
  it('translate each code through the shared catalogue', () => {
    expect(translateCodes(t, { pesel: 'invalid_pesel', weight: 'required' })).toEqual({
      pesel: '[validation.invalid_pesel]',
      weight: '[validation.required]',
    });
  });

  it("let a field word a code its own way and fall back to the catalogue's", () => {
    const message = (field: string, code: string) =>
      field === 'tracking_code' && code !== 'required' ? 'own' : undefined;
    expect(translateCodes(t, { tracking_code: 'invalid', other: 'invalid' }, message)).toEqual({
      tracking_code: 'own',
      other: '[validation.invalid]',
    });
  });

  it("put a list item's message under the list's input too, keeping every message's own key", () => {
    const inputs = { medicine_ids: ['1'], schedule: [{ day: 28 }] };
    expect(
      errorsByInput(
        {
          'medicine_ids.1': 'second',
          'medicine_ids.0': 'first',
          'schedule.1.day': 'row two',
        },
        inputs,
      ),
    ).toEqual({
      'medicine_ids.1': 'second',
      'medicine_ids.0': 'first',
      medicine_ids: 'second',
      // A row of a table keeps its message on its own cell only.
      'schedule.1.day': 'row two',
    });
  });
});
