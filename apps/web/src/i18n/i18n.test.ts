import { describe, expect, it } from 'vitest';
import { validationMessages } from '@portal/shared';
import en from './en.json';
import pl from './pl.json';

function keys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, `${prefix}${key}.`));
}

describe('translations', () => {
  it('pl.json and en.json have identical key sets', () => {
    expect(keys(en).sort()).toEqual(keys(pl).sort());
  });

  it('have no empty texts', () => {
    const texts = (value: unknown): unknown[] =>
      value && typeof value === 'object' ? Object.values(value).flatMap(texts) : [value];
    for (const text of [...texts(pl), ...texts(en)]) {
      expect(typeof text === 'string' && text.trim().length > 0).toBe(true);
    }
  });

  it('do not redefine the shared validation catalogue', () => {
    expect('validation' in pl).toBe(false);
    expect(Object.keys(validationMessages.en).sort()).toEqual(
      Object.keys(validationMessages.pl).sort(),
    );
  });

  it('keep the fixed texts exactly', () => {
    expect(pl.auth.invalidCredentials).toBe(
      'Podałeś nieprawidłowy login lub hasło. Spróbuj ponownie lub skontaktuj się z Administratorem',
    );
    expect(pl.common.duplicate).toBe('Już istnieje przedmiot');
    expect(pl.common.saved).toBe('Zmiany zostały zapisane');
    expect(pl.list.confirmRestore).toBe('Czy na pewno chcesz przywrócić wybrany element?');
  });
});
