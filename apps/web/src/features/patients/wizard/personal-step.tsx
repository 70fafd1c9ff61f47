import {
  Checkbox,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PESEL_LENGTH, PHONE_DIGITS, STRING_MAX, peselBirthDate } from '@portal/shared';
import { useDoctorOptions } from '../../../api/doctors';
import { useUnitOptions } from '../../../api/units';
import { PhoneInput } from '../../../components/phone-input';
import { decimalSeparator } from '../../../entities/patients/patient-format';
import type { PersonalValues, WizardAction, WizardMode } from './wizard-state';

type TextField =
  | 'firstname'
  | 'surname'
  | 'address_street'
  | 'address_building'
  | 'address_apartment'
  | 'address_postcode'
  | 'address_city'
  | 'email'
  | 'project_number';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={3} size="h5">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="sm">
        {children}
      </SimpleGrid>
    </Stack>
  );
}

const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

/** Step 1: personal and medical data (docs/product-rules.md "Patient wizard", "Validation"). */
export function PersonalStep({
  mode,
  values,
  errors,
  dispatch,
  participantId,
  peselError,
  peselChecking,
  lockedUnit,
  knownUnit,
  knownDoctor,
}: {
  mode: WizardMode;
  values: PersonalValues;
  errors: Record<string, string>;
  dispatch: (action: WizardAction) => void;
  /** Edit: the participant number, shown read-only. */
  participantId?: number;
  /** What GET /patients/validate_pesel said about the PESEL typed. */
  peselError?: string | undefined;
  peselChecking: boolean;
  /** A doctor registers patients of the own unit only. */
  lockedUnit: boolean;
  /** The saved unit and doctor, named even when deleted since. */
  knownUnit?: { id: number; name: string };
  knownDoctor?: { id: number; firstname: string; surname: string; unit_id: number };
}) {
  const { t, i18n } = useTranslation();
  const units = useUnitOptions();
  const doctors = useDoctorOptions({ unitId: values.unit_id, enabled: values.unit_id !== null });

  const set = <K extends keyof PersonalValues>(field: K, value: PersonalValues[K]) =>
    dispatch({ type: 'setPersonal', field, value });
  const error = (field: keyof PersonalValues) => errors[`personal.${field}`];
  const text = (field: TextField, label: string, extra: { required?: boolean } = {}) => (
    <TextInput
      label={label}
      value={values[field]}
      onChange={(event) => set(field, event.currentTarget.value)}
      error={error(field)}
      maxLength={STRING_MAX}
      autoComplete="off"
      withAsterisk={extra.required}
      aria-required={extra.required || undefined}
    />
  );

  const unitOptions = (units.data ?? []).map((u) => ({ value: u.id, label: u.name }));
  if (knownUnit && !unitOptions.some((o) => o.value === knownUnit.id)) {
    unitOptions.push({ value: knownUnit.id, label: knownUnit.name });
  }
  const doctorOptions = (doctors.data ?? []).map((d) => ({
    value: d.id,
    label: `${d.surname} ${d.firstname}`,
  }));
  if (
    knownDoctor &&
    knownDoctor.unit_id === values.unit_id &&
    !doctorOptions.some((o) => o.value === knownDoctor.id)
  ) {
    doctorOptions.push({
      value: knownDoctor.id,
      label: `${knownDoctor.surname} ${knownDoctor.firstname}`,
    });
  }

  return (
    <Stack gap="lg">
      <Section title={t('patients.personal.sectionPersonal')}>
        {participantId !== undefined && (
          <TextInput
            label={t('patients.personal.participantNumber')}
            value={String(participantId)}
            readOnly
            variant="filled"
          />
        )}
        {text('firstname', t('patients.personal.firstname'), { required: true })}
        {text('surname', t('patients.personal.surname'), { required: true })}
        <TextInput
          label={t('patients.personal.pesel')}
          value={values.pesel}
          onChange={(event) => set('pesel', digitsOnly(event.currentTarget.value, PESEL_LENGTH))}
          error={error('pesel') ?? peselError}
          maxLength={PESEL_LENGTH}
          inputMode="numeric"
          autoComplete="off"
          withAsterisk
          aria-required
          rightSection={
            peselChecking ? (
              <Loader size="xs" role="status" aria-label={t('patients.personal.peselChecking')} />
            ) : null
          }
        />
        <TextInput
          label={t('patients.personal.birthDate')}
          value={peselBirthDate(values.pesel)}
          placeholder={t('patients.personal.birthDatePlaceholder')}
          readOnly
          variant="filled"
        />
      </Section>

      <Section title={t('patients.personal.sectionAddress')}>
        {text('address_street', t('patients.personal.street'))}
        {text('address_building', t('patients.personal.building'))}
        {text('address_apartment', t('patients.personal.apartment'))}
        {text('address_postcode', t('patients.personal.postcode'))}
        {text('address_city', t('patients.personal.city'))}
      </Section>

      <Section title={t('patients.personal.sectionContact')}>
        <PhoneInput
          label={t('patients.personal.phone')}
          value={values.phone_number}
          onChange={(event) =>
            set('phone_number', digitsOnly(event.currentTarget.value, PHONE_DIGITS))
          }
          error={error('phone_number')}
          withAsterisk
          aria-required
        />
        <TextInput
          label={t('patients.personal.email')}
          type="email"
          value={values.email}
          onChange={(event) => set('email', event.currentTarget.value)}
          error={error('email')}
          maxLength={STRING_MAX}
          autoComplete="off"
        />
      </Section>

      <Section title={t('patients.personal.sectionMedical')}>
        <NumberInput
          label={t('patients.personal.height')}
          value={values.height}
          onChange={(value) => set('height', value)}
          error={error('height')}
          min={0}
          max={300}
          decimalScale={1}
          hideControls
          inputMode="decimal"
          decimalSeparator={decimalSeparator(i18n.language)}
        />
        <NumberInput
          label={t('patients.personal.weight')}
          value={values.weight}
          onChange={(value) => set('weight', value)}
          error={error('weight')}
          min={0}
          max={500}
          decimalScale={1}
          hideControls
          inputMode="decimal"
          decimalSeparator={decimalSeparator(i18n.language)}
        />
      </Section>

      <Section title={t('patients.personal.sectionProgramme')}>
        {mode === 'create' ? (
          <TextInput
            label={t('patients.personal.projectNumber')}
            description={t('patients.personal.projectNumberHint')}
            value={values.project_number}
            onChange={(event) => set('project_number', event.currentTarget.value)}
            error={error('project_number')}
            maxLength={STRING_MAX}
            autoComplete="off"
          />
        ) : (
          text('project_number', t('patients.personal.projectNumber'))
        )}
        <Select<number>
          label={t('patients.personal.unit')}
          placeholder={t('patients.personal.unitPlaceholder')}
          data={unitOptions}
          value={values.unit_id}
          onChange={(value) => set('unit_id', value)}
          error={error('unit_id')}
          searchable
          // A doctor's own unit: shown, not changeable (readOnly keeps it legible, unlike disabled).
          readOnly={lockedUnit}
          variant={lockedUnit ? 'filled' : 'default'}
          nothingFoundMessage={t('list.empty')}
          withAsterisk
          aria-required
        />
        <Select<number>
          label={t('patients.personal.doctor')}
          placeholder={
            values.unit_id === null
              ? t('patients.personal.doctorNeedsUnit')
              : t('patients.personal.doctorPlaceholder')
          }
          data={doctorOptions}
          value={values.doctor_id}
          onChange={(value) => set('doctor_id', value)}
          error={error('doctor_id')}
          searchable
          disabled={values.unit_id === null}
          nothingFoundMessage={t('list.empty')}
          withAsterisk
          aria-required
        />
      </Section>

      {mode === 'create' ? (
        <Checkbox
          label={t('patients.personal.acceptance')}
          checked={values.acceptance}
          onChange={(event) => set('acceptance', event.currentTarget.checked)}
          error={error('acceptance')}
          aria-required
        />
      ) : (
        <Checkbox
          label={t('patients.personal.finished')}
          checked={values.is_finished}
          onChange={(event) => set('is_finished', event.currentTarget.checked)}
        />
      )}
    </Stack>
  );
}
