import { describe, expect, it } from 'vitest';
import { DATE_RANGE_OPTIONS } from '../../../components/date-range';
import { translator } from '../../../i18n/translator';
import { CARD_TABS, tabFrom } from './card-tabs';
import { attachmentProblem } from './card-format';
import { personName } from '../../../entities/patients/patient-format';

const pl = translator('pl');
const en = translator('en');

describe('the patient card in Polish', () => {
  it('shows its tabs in the fixed order, under the fixed names', () => {
    expect(CARD_TABS.map((tab) => pl(`card.tabs.${tab}`))).toEqual([
      'Dane osobowe i medyczne',
      'Przyjmowane leki',
      'Wizyty',
      'Komentarze lekarza',
      'Załączniki',
      'Próbki',
      'Komunikaty',
      'Zapytania',
    ]);
  });

  it('opens "Dane osobowe i medyczne" for a tab the address does not know', () => {
    expect(pl(`card.tabs.${tabFrom('wizyty')}`)).toBe('Dane osobowe i medyczne');
    expect(pl(`card.tabs.${tabFrom(null)}`)).toBe('Dane osobowe i medyczne');
  });

  it('signs an administrator\'s note or message "Administrator"', () => {
    expect(personName(null, pl('card.administrator'))).toBe('Administrator');
    expect(personName({ firstname: 'Anna', surname: 'Nowak' }, pl('card.administrator'))).toBe(
      'Anna Nowak',
    );
  });

  it('refuses an attachment of another type or over 20 MB with the shared messages', () => {
    const message = (file: { name: string; size: number }) => {
      const problem = attachmentProblem(file);
      if (!problem) return null;
      return pl(
        problem === 'invalid_type' ? 'validation.invalid_file_type' : 'validation.file_too_large',
      );
    };
    expect(message({ name: 'wyniki.pdf', size: 1000 })).toBeNull();
    expect(message({ name: 'wyniki.exe', size: 1000 })).toBe('Nieprawidłowy rodzaj pliku');
    expect(message({ name: 'wyniki.pdf', size: 21 * 1024 * 1024 })).toBe(
      'Plik jest za duży (maksymalnie 20 MB)',
    );
  });

  it('offers the date ranges in their fixed order', () => {
    expect(DATE_RANGE_OPTIONS.map((option) => pl(`dateRange.options.${option}`))).toEqual([
      'Od początku',
      'Wczoraj',
      'Dzisiaj',
      'Ostatnie 7 dni',
      'Ostatnie 14 dni',
      'Ostatnie 30 dni',
      'Zakres niestandardowy',
    ]);
  });
});

describe('the patient card in English', () => {
  it('names every tab and date range in English, each differently', () => {
    const tabs = CARD_TABS.map((tab) => en(`card.tabs.${tab}`));
    const ranges = DATE_RANGE_OPTIONS.map((option) => en(`dateRange.options.${option}`));
    for (const labels of [tabs, ranges]) {
      expect(new Set(labels).size).toBe(labels.length);
    }
    expect(tabs).not.toEqual(CARD_TABS.map((tab) => pl(`card.tabs.${tab}`)));
  });
});
