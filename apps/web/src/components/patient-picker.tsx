import { MultiSelect } from '@mantine/core';
import type { ComboboxParsedItem, MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '@portal/shared';
import type { PatientBasic } from '@portal/shared';
import { usePatientOptions } from '../api/patients';
import { ComboboxMessage } from './combobox-message';
import {
  emptyMessageKey,
  pickerData,
  rememberPatients,
  unknownIds,
  visibleValues,
} from './patient-options';

const NONE: readonly PatientBasic[] = [];

/**
 * The state of a patient picker that searches on the server as the user types (issue 8): the
 * typed text, the debounced matches (at most PICKER_LIMIT), the names of the chosen patients
 * (remembered from earlier answers, asked for by id only when never seen) and what the dropdown
 * says when it lists nothing. Any Mantine combobox can be fed from it.
 */
export function usePatientPicker(value: readonly string[], enabled = true) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [known, setKnown] = useState<ReadonlyMap<string, PatientBasic>>(() => new Map());

  const matchesQuery = usePatientOptions({ search: term, enabled: enabled && term !== '' });
  const missing = unknownIds(value, known);
  const namedQuery = usePatientOptions({ ids: missing, enabled: enabled && missing.length > 0 });
  // With no search the server also answers its first patients; only the named ones are wanted.
  const matches = term ? (matchesQuery.data ?? NONE) : NONE;
  const named = namedQuery.data;

  // Adjusted while rendering (React's pattern for state derived from changing input): the names
  // stay once the matches that carried them are gone. Unchanged input gives the same map: no loop.
  const remembered = rememberPatients(rememberPatients(known, matches), named ?? NONE);
  if (remembered !== known) setKnown(remembered);

  const visible = visibleValues(search, matches, value);
  const searching = search.trim() !== term || matchesQuery.isFetching;
  return {
    data: pickerData(matches, value, remembered),
    searchValue: search,
    onSearchChange: setSearch,
    filter: ({ options }: { options: ComboboxParsedItem[] }) =>
      options.filter((option) => 'value' in option && visible.has(String(option.value))),
    nothingFoundMessage: <ComboboxMessage>{t(emptyMessageKey(search, searching))}</ComboboxMessage>,
  };
}

type PatientPickerProps = Omit<
  MultiSelectProps,
  | 'data'
  | 'value'
  | 'onChange'
  | 'searchable'
  | 'searchValue'
  | 'onSearchChange'
  | 'filter'
  | 'nothingFoundMessage'
> & {
  value: string[];
  onChange: (ids: string[]) => void;
  /** False while the user may not read patients: nothing is asked of the server. */
  enabled?: boolean;
};

/**
 * A searchable multi-select of patients (by name or PESEL, diacritics optional) that never loads
 * the whole table: the audit trail's filter now, sample and kit screens later.
 */
export function PatientPicker({ value, onChange, enabled = true, ...props }: PatientPickerProps) {
  const picker = usePatientPicker(value, enabled);
  return (
    <MultiSelect
      {...props}
      {...picker}
      value={value}
      onChange={onChange}
      searchable
      comboboxProps={{ withinPortal: true, ...props.comboboxProps }}
    />
  );
}
