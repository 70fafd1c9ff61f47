import { describe, expect, it } from 'vitest';
import type { PatientBasic } from '@portal/shared';
import { translator } from '../i18n/translator';
import {
  emptyMessageKey,
  patientLabel,
  pickerData,
  rememberPatients,
  unknownIds,
  visibleValues,
} from './patient-options';

function patient(id: number, surname: string, firstname = 'Zofia'): PatientBasic {
  return {
    id,
    user_id: 100 + id,
    login: `p${id}`,
    firstname,
    surname,
    pesel: `9001011234${id}`,
    unit_id: 1,
    deleted_at: null,
  };
}

const kowalska = patient(1, 'Kowalska');
const kowalski = patient(2, 'Kowalski', 'Jan');
const nowak = patient(3, 'Nowak');

describe('patient picker options', () => {
  it('names a patient by surname, first name and PESEL', () => {
    expect(patientLabel(kowalska)).toBe('Kowalska Zofia (90010112341)');
  });

  it('lists the matches, then the chosen patients that are not among them', () => {
    const known = new Map([['3', nowak]]);
    expect(pickerData([kowalska, kowalski], ['2', '3'], known)).toEqual([
      { value: '1', label: 'Kowalska Zofia (90010112341)' },
      { value: '2', label: 'Kowalski Jan (90010112342)' },
      { value: '3', label: 'Nowak Zofia (90010112343)' },
    ]);
    // A chosen patient whose name has not arrived yet keeps a pill, named by its id.
    expect(pickerData([], ['7'], known)).toEqual([{ value: '7', label: '#7' }]);
  });

  it('shows the server’s matches while something is typed, else the chosen ones', () => {
    expect(visibleValues('kow', [kowalska, kowalski], ['3'])).toEqual(new Set(['1', '2']));
    // "lodz" finds Łódź on the server: its matches are shown even where the label differs.
    expect(visibleValues('kowálska', [kowalska], [])).toEqual(new Set(['1']));
    expect(visibleValues('  ', [kowalska], ['3'])).toEqual(new Set(['3']));
    expect(visibleValues('', [], [])).toEqual(new Set());
  });

  it('asks by id only for chosen patients never seen, and remembers what answers named', () => {
    const empty = new Map<string, PatientBasic>();
    expect(unknownIds(['1', '3'], empty)).toEqual(['1', '3']);
    const known = rememberPatients(empty, [kowalska, nowak]);
    expect(unknownIds(['1', '3', '9'], known)).toEqual(['9']);
    // Nothing new: the same map, so that remembering never renders again.
    expect(rememberPatients(known, [kowalska])).toBe(known);
    expect(rememberPatients(known, [kowalski]).get('2')).toBe(kowalski);
  });

  it('asks to type before searching, then says it searches or found nothing (pl and en)', () => {
    const pl = translator('pl');
    const en = translator('en');
    expect(pl(emptyMessageKey('', false))).toBe('Wpisz nazwisko, imię lub PESEL');
    expect(en(emptyMessageKey(' ', false))).toBe('Type a surname, first name or PESEL');
    expect(pl(emptyMessageKey('kow', true))).toBe('Szukam…');
    expect(pl(emptyMessageKey('kow', false))).toBe('Nie znaleziono');
    expect(en(emptyMessageKey('kow', false))).toBe('Nothing found');
  });
});
