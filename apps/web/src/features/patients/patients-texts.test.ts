import { describe, expect, it } from 'vitest';
import { validationMessages } from '@portal/shared';
import pl from '../../i18n/pl.json';

describe('patients texts', () => {
  it('keep the spec wording', () => {
    expect(pl.patients.wizard.createTitle).toBe('Rejestracja nowego pacjenta');
    expect(pl.patients.wizard.editTitle).toBe('Edycja danych pacjenta');
    expect(pl.patients.wizard.steps).toEqual({
      personal: 'Dane osobowe i medyczne',
      inclusion: 'Kryteria włączenia',
      medicines: 'Leki',
      qualification: 'Kwalifikacja',
    });
    expect(pl.patients.personal.acceptance).toBe(
      'Potwierdzam, że pacjent udzielił zgody na udział w programie',
    );
    expect(pl.patients.filters.finished).toBe('Zakończył udział w programie');
    expect(pl.patients.createPatient.inclusion.selectAnyInclusion).toBe(
      'Wybierz co najmniej jedno kryterium włączenia',
    );
    expect(pl.patients.exist).toBe('Pacjent o podanym adresie e-mail lub peselu już istnieje.');
    expect(pl.patients.created).toBe('Pacjent został zarejestrowany');
    expect(pl.patients.updated).toBe('Zmiany zostały zapisane');
    expect(pl.patients.serverError).toBe('Błąd serwera');
    expect(pl.common.validationError).toBe('Błąd walidacji. Popraw dane.');
    expect(pl.patients.wizard.printQuestion).toBe('Czy chcesz wydrukować dane logowania pacjenta?');
    expect([pl.patients.wizard.printCancel, pl.patients.wizard.print]).toEqual([
      'Anuluj',
      'Drukuj',
    ]);
    expect(pl.patients.qualification).toMatchObject({
      above18: 'Powyżej 18 lat',
      below18: 'Poniżej 18 lat',
      classified: 'Zakwalifikowany',
      notClassified: 'Niezakwalifikowany',
    });
    expect(validationMessages.pl.pesel_taken).toBe(
      'Pacjent o podanym numerze PESEL istnieje już w bazie.',
    );
    expect(validationMessages.pl.acceptance_required).toBe(
      'Pacjent musi wyrazić zgodę na przetwarzanie danych osobowych',
    );
  });
});
