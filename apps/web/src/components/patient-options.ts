import type { PatientBasic } from '@portal/shared';

/** A patient as pickers name it: 'Surname Firstname (PESEL)'. */
export function patientLabel(p: Pick<PatientBasic, 'firstname' | 'surname' | 'pesel'>): string {
  return `${p.surname} ${p.firstname}${p.pesel ? ` (${p.pesel})` : ''}`;
}

export interface PickerOption {
  value: string;
  label: string;
}

/**
 * The picker's options: the server's matches, then the chosen patients that are not among them
 * (so that their pills keep their names). A chosen patient not known yet is named by its id until
 * its name arrives.
 */
export function pickerData(
  matches: readonly PatientBasic[],
  chosen: readonly string[],
  known: ReadonlyMap<string, PatientBasic>,
): PickerOption[] {
  const options = matches.map((p) => ({ value: String(p.id), label: patientLabel(p) }));
  const listed = new Set(options.map((option) => option.value));
  for (const id of chosen) {
    if (listed.has(id)) continue;
    const patient = known.get(id);
    options.push({ value: id, label: patient ? patientLabel(patient) : `#${id}` });
    listed.add(id);
  }
  return options;
}

/**
 * Which options the dropdown lists: the server's matches while something is typed (the server
 * already matched them, without diacritics, by name or PESEL, which a filter on the label could
 * not redo), else the chosen ones, so that they can be unticked.
 */
export function visibleValues(
  search: string,
  matches: readonly PatientBasic[],
  chosen: readonly string[],
): Set<string> {
  return search.trim() ? new Set(matches.map((p) => String(p.id))) : new Set(chosen);
}

/** The chosen ids whose names the picker has not seen: only these are asked for by id. */
export function unknownIds(
  chosen: readonly string[],
  known: ReadonlyMap<string, PatientBasic>,
): string[] {
  return chosen.filter((id) => !known.has(id));
}

/** Remembers every patient an answer named, keyed by id as the picker's values are. */
export function rememberPatients(
  known: ReadonlyMap<string, PatientBasic>,
  answers: readonly PatientBasic[],
): ReadonlyMap<string, PatientBasic> {
  const fresh = answers.filter((p) => known.get(String(p.id)) !== p);
  if (fresh.length === 0) return known;
  const next = new Map(known);
  for (const p of fresh) next.set(String(p.id), p);
  return next;
}

/** What the dropdown says when it lists nothing. */
export function emptyMessageKey(
  search: string,
  searching: boolean,
): 'picker.typeToSearch' | 'picker.searching' | 'picker.nothingFound' {
  if (!search.trim()) return 'picker.typeToSearch';
  return searching ? 'picker.searching' : 'picker.nothingFound';
}
