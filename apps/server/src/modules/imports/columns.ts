import type { BatchMode } from '@portal/shared';

/**
 * The columns of each import's template (docs/api-conventions.md "Import"), in order, with the
 * Polish explanation the template's second sheet shows.
 */
export const IMPORT_COLUMNS: Record<BatchMode, readonly (readonly [string, string])[]> = {
  patient_data: [
    ['firstname', 'Imię (wymagane)'],
    ['surname', 'Nazwisko (wymagane)'],
    [
      'pesel',
      'Numer PESEL, 11 cyfr (wymagany, niepowtarzalny); płeć i datę urodzenia wylicza się z niego',
    ],
    ['address_street', 'Ulica'],
    ['address_building', 'Numer budynku'],
    ['address_apartment', 'Numer lokalu'],
    ['address_postcode', 'Kod pocztowy'],
    ['address_city', 'Miejscowość'],
    ['phone_number', 'Numer telefonu, 9 cyfr (wymagany)'],
    ['email', 'Adres e-mail (niepowtarzalny wśród aktywnych pacjentów)'],
    ['weight', 'Masa ciała w kg'],
    ['height', 'Wzrost w cm'],
    ['project_number', 'Numer w projekcie'],
    ['unit_id', 'Identyfikator jednostki (wymagany)'],
    ['doctor_id', 'Identyfikator lekarza z tej jednostki (wymagany)'],
    ['group_id', 'Identyfikator grupy kryteriów włączenia (wymagany)'],
    ['subgroup_id', 'Identyfikator podgrupy tej grupy (wymagany)'],
    ['dose', 'Dawka z listy dawek podgrupy'],
    ['interval', 'Odstęp między dawkami (tylko gdy podgrupa na to pozwala)'],
    ['is_above_18', 'Pełnoletni: 1 lub 0 (domyślnie 1)'],
    ['is_classified', 'Zakwalifikowany: 1 lub 0 (domyślnie 0)'],
    ['exclusion_criteria_id', 'Identyfikator spełnionego kryterium wykluczenia (puste: brak)'],
    ['medicines', 'Leki jako identyfikator_leku:dawka oddzielone średnikami, np. 1:10;2:5'],
  ],
  results: [
    ['probe_code', 'Kod próbki (wymagany)'],
    ['analyte', 'Badanie: alt, ast, creatine, bilirubine albo identyfikator leku'],
    ['value', 'Wynik: liczba nie mniejsza niż 0'],
    ['unit', 'Jednostka: U/l (ALT, AST), mg/dl (kreatynina, bilirubina), ng/ml (leki)'],
    ['date_of_analysis', 'Data analizy DD.MM.RRRR lub RRRR-MM-DD'],
    ['hours', 'Godziny od ostatniej dawki (stężenia leków)'],
    ['lab_range', 'Zakres referencyjny laboratorium, np. 0-40 (opcjonalnie)'],
  ],
};

export const columnNames = (mode: BatchMode) => IMPORT_COLUMNS[mode].map(([name]) => name);

/**
 * Columns a file may add to the template's (HL7 v2 XML files always carry them, from PID-8 and
 * PID-7): a result whose sex or birth date disagrees with the sample's patient is not attached
 * but waits among the unmatched results, as the HL7 connector does.
 */
export const OPTIONAL_COLUMNS: Record<BatchMode, readonly (readonly [string, string])[]> = {
  patient_data: [],
  results: [
    [
      'patient_sex',
      'Płeć pacjenta (opcjonalnie): M albo K (F też oznacza kobietę); gdy nie zgadza się z płcią pacjenta próbki, wynik trafia do niedopasowanych wyników',
    ],
    [
      'patient_birth_date',
      'Data urodzenia pacjenta (opcjonalnie), DD.MM.RRRR lub RRRR-MM-DD; gdy nie zgadza się z datą urodzenia pacjenta próbki, wynik trafia do niedopasowanych wyników',
    ],
  ],
};
