import { describe, expect, it } from 'vitest';
import { validationMessages } from '@portal/shared';
import enApp from './en.app.json';
import en from './en.json';
import plApp from './pl.app.json';
import pl from './pl.json';

function keys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, `${prefix}${key}.`));
}

describe('translations', () => {
  // Each part loads on its own in either language (ADR 019), so each must be complete in both.
  it('pl.json and en.json have identical key sets', () => {
    expect(keys(en).sort()).toEqual(keys(pl).sort());
  });

  it('pl.app.json and en.app.json have identical key sets', () => {
    expect(keys(enApp).sort()).toEqual(keys(plApp).sort());
  });

  it('split the catalogue by whole groups: no group is in both parts', () => {
    expect(Object.keys(pl).filter((group) => group in plApp)).toEqual([]);
    expect(Object.keys(en).filter((group) => group in enApp)).toEqual([]);
  });

  it('have no empty texts', () => {
    const texts = (value: unknown): unknown[] =>
      value && typeof value === 'object' ? Object.values(value).flatMap(texts) : [value];
    for (const text of [pl, plApp, en, enApp].flatMap(texts)) {
      expect(typeof text === 'string' && text.trim().length > 0).toBe(true);
    }
  });

  it('do not redefine the shared validation catalogue', () => {
    expect('validation' in pl || 'validation' in plApp).toBe(false);
    expect('validation' in en || 'validation' in enApp).toBe(false);
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
    expect(plApp.list.confirmRestore).toBe('Czy na pewno chcesz przywrócić wybrany element?');
  });
});
