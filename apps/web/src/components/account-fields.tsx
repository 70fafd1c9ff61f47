import { MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STRING_MAX } from '@portal/shared';
import { useUnitOptions } from '../api/units';
import { unitChoices } from './account-units';
import type { Unit } from './account-units';
import { ComboboxMessage } from './combobox-message';
import { PhoneInput } from './phone-input';

type PersonField = 'firstname' | 'surname' | 'email' | 'phone_number';

/** The part of the form hook (lib/use-zod-form.ts) the person's inputs use. */
interface PersonForm {
  getInputProps(name: PersonField): {
    value: string;
    onChange: (input: unknown) => void;
    error: string | undefined;
  };
}

/**
 * A doctor's or a monitor's name, e-mail (the login) and phone, typed as 9 digits after a fixed
 * +48. `texts` is the screen whose labels they carry.
 */
export function PersonFields({ form, texts }: { form: PersonForm; texts: 'doctors' | 'monitors' }) {
  const { t } = useTranslation();
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t(`${texts}.firstname`)}
          required
          maxLength={STRING_MAX}
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('firstname')}
        />
        <TextInput
          label={t(`${texts}.surname`)}
          required
          maxLength={STRING_MAX}
          autoComplete="off"
          {...form.getInputProps('surname')}
        />
      </SimpleGrid>
      <TextInput
        label={t(`${texts}.email`)}
        type="email"
        required
        maxLength={STRING_MAX}
        autoComplete="off"
        {...form.getInputProps('email')}
      />
      <PhoneInput label={t(`${texts}.phone`)} required {...form.getInputProps('phone_number')} />
    </>
  );
}

type UnitPickerProps = {
  label: string;
  placeholder: string;
  error: string | undefined;
  /** The account's units as stored (shown even when deleted since). */
  assigned: readonly Unit[];
} & (
  | { multiple?: false; value: number | null; onChange: (id: number | null) => void }
  | { multiple: true; value: readonly number[]; onChange: (ids: number[]) => void }
);

/**
 * The unit of an account, searchable: one for a doctor, several for a monitor. Ids are numbers,
 * as the API takes them (a string id is refused, ADR 037); the select holds text.
 */
export function UnitPicker(props: UnitPickerProps) {
  const { t } = useTranslation();
  const units = useUnitOptions();
  const common = {
    label: props.label,
    required: true,
    searchable: true,
    data: unitChoices(units.data ?? [], props.assigned),
    nothingFoundMessage: <ComboboxMessage>{t('list.empty')}</ComboboxMessage>,
    comboboxProps: { withinPortal: true },
    error: props.error,
  };
  if (props.multiple) {
    const { onChange } = props;
    return (
      <MultiSelect
        {...common}
        placeholder={props.value.length ? undefined : props.placeholder}
        value={props.value.map(String)}
        onChange={(values) => onChange(values.map(Number))}
      />
    );
  }
  const { onChange } = props;
  return (
    <Select
      {...common}
      placeholder={props.placeholder}
      value={props.value === null ? null : String(props.value)}
      onChange={(value) => onChange(value ? Number(value) : null)}
    />
  );
}
