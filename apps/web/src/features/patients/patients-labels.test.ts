import { describe, expect, it } from 'vitest';
import { patientCreateBody } from '@portal/shared';
import { translator } from '../../i18n/translator';
import { validateWith } from '../../lib/form-validation';
import { resources } from '../../i18n/resources';
import { STEPS, initialCreateState, toCreateBody } from './wizard/wizard-state';

const pl = translator('pl');

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return value && typeof value === 'object' ? Object.values(value).flatMap(texts) : [];
}

/**
 * Messages fixed word for word for the patient screens (list, wizard, card). Where a screen's logic
 * picks them, the tests above and the browser tests check it; this keeps the words themselves
 * from drifting, whichever key holds them.
 */
const SPEC_MESSAGES = [
  'Rejestracja nowego pacjenta',
  'Edycja danych pacjenta',
  'Potwierdzam, że pacjent udzielił zgody na udział w programie',
  'Zakończył udział w programie',
  'Wybierz co najmniej jedno kryterium włączenia',
  'Pacjent o podanym adresie e-mail lub peselu już istnieje.',
  'Pacjent został zarejestrowany',
  'Zmiany zostały zapisane',
  'Błąd serwera',
  'Błąd walidacji. Popraw dane.',
  'Czy chcesz wydrukować dane logowania pacjenta?',
  'Anuluj',
  'Drukuj',
  'Powyżej 18 lat',
  'Poniżej 18 lat',
  'Zakwalifikowany',
  'Niezakwalifikowany',
  'Czy na pewno chcesz usunąć dane tego pacjenta?',
  'Brak komunikatów.',
  'Dodaj nowy komunikat',
  'Plik został przesłany',
  'Nie udało się przesłać pliku',
  'Historia zmian',
];

describe("the patient screens' texts", () => {
  it('include every message fixed for them, word for word', () => {
    const polish = new Set(texts(resources.pl.translation));
    expect(SPEC_MESSAGES.filter((message) => !polish.has(message))).toEqual([]);
  });
});

describe('the patient wizard in Polish', () => {
  it('names its steps in their fixed order', () => {
    expect(STEPS.map((step) => pl(`patients.wizard.steps.${step}`))).toEqual([
      'Dane osobowe i medyczne',
      'Kryteria włączenia',
      'Leki',
      'Kwalifikacja',
    ]);
  });

  it('refuses an empty registration with the fixed message for the missing consent', () => {
    const result = validateWith(patientCreateBody, toCreateBody(initialCreateState()));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const code = result.codes['personal.acceptance'];
    expect(code && pl(`validation.${code}`)).toBe(
      'Pacjent musi wyrazić zgodę na przetwarzanie danych osobowych',
    );
  });

  it('translates the server refusal of a taken PESEL into the fixed message', () => {
    expect(pl('validation.pesel_taken')).toBe(
      'Pacjent o podanym numerze PESEL istnieje już w bazie.',
    );
  });
});
