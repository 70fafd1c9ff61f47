import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import pl from '../../../i18n/pl.json';

describe('patient card, audit and date-range texts', () => {
  it('keep the spec texts exactly', () => {
    expect(pl.card.confirmDelete).toBe('Czy na pewno chcesz usunąć dane tego pacjenta?');
    expect(pl.card.messages.empty).toBe('Brak komunikatów.');
    expect(pl.card.messages.add).toBe('Dodaj nowy komunikat');
    expect(pl.card.files.file_successfully_uploaded).toBe('Plik został przesłany');
    expect(pl.card.files.file_unsuccessfully_uploaded).toBe('Nie udało się przesłać pliku');
    expect(pl.card.administrator).toBe('Administrator');
    expect(pl.card.tabs).toEqual({
      personal: 'Dane osobowe i medyczne',
      medicines: 'Przyjmowane leki',
      notes: 'Komentarze lekarza',
      attachments: 'Załączniki',
      messages: 'Komunikaty',
    });
    expect(pl.audit.title).toBe('Historia zmian');
    expect(pl.dateRange.options).toEqual({
      all: 'Od początku',
      yesterday: 'Wczoraj',
      today: 'Dzisiaj',
      last7: 'Ostatnie 7 dni',
      last14: 'Ostatnie 14 dni',
      last30: 'Ostatnie 30 dni',
      custom: 'Zakres niestandardowy',
    });
  });

  it('are complete in English', () => {
    expect(Object.keys(en.card.tabs)).toEqual(Object.keys(pl.card.tabs));
    expect(en.card.messages.empty).toBe('No messages.');
  });
});
