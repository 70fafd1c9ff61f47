import {
  Alert,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  COLLECT_PLACES,
  carrierFitsMaterial,
  formatDay,
  probeBody,
  TYPES_OF_MATERIAL,
  TYPES_OF_TEST,
  warsawToday,
} from '@portal/shared';
import type { PatientDetail, ProbeBody } from '@portal/shared';
import { useMedicines } from '../../api/lookups';
import { confirmAction } from '../../components/confirm';
import { FormModal } from '../../components/form-modal';
import { LocalizedDates } from '../../components/localized-dates';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { useZodForm } from '../../lib/use-zod-form';
import { acceptedKits, initialProbeForm, parseTypedDay, probeBodyFrom } from './probe-form';
import type { ProbeFormValues } from './probe-form';
import { usePatientProbeSets } from '../kit-orders/probe-sets-api';
import { useCreateProbe, useProbeCarriers, useProbeCodePreview } from './samples-api';
import { ordinalKey } from '../visits/visit-format';
import { usePatientVisits } from '../visits/visits-api';

type TextField =
  | 'ordered_by_firstname'
  | 'ordered_by_surname'
  | 'patient_firstname'
  | 'patient_surname'
  | 'patient_address_street'
  | 'patient_address_building'
  | 'patient_address_postcode'
  | 'patient_address_city';

/** How long the form rests before the number preview is asked again (on every change). */
const PREVIEW_DEBOUNCE_MS = 300;

/**
 * "Wyślij próbkę do analizy" (docs/product-rules.md "Validation"): the required fields with their
 * defaults, the number preview refreshed as the form changes, the final number from the server.
 */
export function ProbeCreateDialog({
  opened,
  patient,
  onClose,
}: {
  opened: boolean;
  patient: PatientDetail;
  onClose: () => void;
}) {
  // Mounted afresh for every opening: a new sample starts from the defaults again.
  return opened ? <ProbeCreateForm patient={patient} onClose={onClose} /> : null;
}

function ProbeCreateForm({ patient, onClose }: { patient: PatientDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const today = warsawToday();
  const form = useZodForm(probeBody, () => initialProbeForm(patient, session?.user), {
    toBody: (values: ProbeFormValues) => probeBodyFrom(patient.id, values),
    // A sample is not drawn tomorrow; "today" is Warsaw's (docs/product-rules.md "Dates and times").
    check: (values) =>
      values.date_of_sample && values.date_of_sample > today
        ? { date_of_sample: 'future_date' }
        : {},
  });
  const { values, errors } = form;
  const medicines = useMedicines();
  const carriers = useProbeCarriers();
  const visits = usePatientVisits(patient.id);
  const create = useCreateProbe();
  const can = useCan();
  const orders = usePatientProbeSets(patient.id, { enabled: can('probe_sets.read') });

  const body = probeBodyFrom(patient.id, values);
  const chosenCarrier = (carriers.data ?? []).find((c) => String(c.id) === values.carrier_id);
  const unfitCarrier =
    chosenCarrier && !carrierFitsMaterial(chosenCarrier, values.type_of_material)
      ? chosenCarrier
      : null;
  const [previewBody] = useDebouncedValue(JSON.stringify(body), PREVIEW_DEBOUNCE_MS);
  const preview = useProbeCodePreview(patient.id, previewBody);

  const set = form.setFieldValue;
  const text = (field: TextField) => ({ ...form.getInputProps(field), required: true });

  const submit = form.onSubmit(
    (data: ProbeBody) => {
      // A carrier not meant for the material (a DBS card with venous blood) is asked about
      // first; the API takes the body as sent (ADR 041).
      if (unfitCarrier) {
        confirmAction({
          question: t('samples.form.unfitQuestion', {
            carrier: unfitCarrier.name,
            material: t(`probe.material.${values.type_of_material}`),
          }),
          detail: t('samples.form.unfitDetail'),
          confirmLabel: t('samples.form.unfitConfirm'),
          cancelLabel: t('common.cancel'),
          onConfirm: () => send(data),
        });
        return;
      }
      send(data);
    },
    () => notifyError(t('common.validationError')),
  );

  function send(data: ProbeBody) {
    create.mutate(data, {
      onSuccess: (probe) => {
        notifySuccess(t('samples.created', { code: probe.code }));
        onClose();
      },
      onError: (error) => {
        if (isApiError(error) && error.httpStatus === 422) {
          form.setServerErrors(serverFieldErrors(error));
          notifyError(t('common.validationError'));
          return;
        }
        notifyError(t(commonErrorKey(error)));
      },
    });
  }

  // The patient's study medicines first, then the rest of the study's.
  const own = new Set(patient.medicines.map((medicine) => medicine.medicine_id));
  const allMedicines = medicines.data ?? [];
  const medicineOption = (medicine: { id: number; name: string }) => ({
    value: String(medicine.id),
    label: medicine.name,
  });
  const medicineData = [
    {
      group: t('samples.form.patientMedicines'),
      items: patient.medicines.map((medicine) =>
        medicineOption({ id: medicine.medicine_id, name: medicine.name }),
      ),
    },
    {
      group: t('samples.form.otherMedicines'),
      items: allMedicines.filter((medicine) => !own.has(medicine.id)).map(medicineOption),
    },
  ].filter((group) => group.items.length > 0);

  const visitData = (visits.data ?? []).map((visit) => {
    const { key, options } = ordinalKey(visit.ordinal);
    return { value: String(visit.id), label: `${t(key, options)}, ${formatDay(visit.date)}` };
  });

  const kitData = acceptedKits(orders.data ?? []).map((kit) => ({
    value: String(kit.kitId),
    label: t('probeSets.kitSelect.option', { kit: kit.kitNumber, order: kit.orderId }),
  }));

  const dateInput = (field: 'date_of_sample' | 'ordered_at', label: string) => (
    <DateInput
      label={label}
      required
      value={values[field]}
      onChange={(day) => set(field, day)}
      error={errors[field]}
      valueFormat="DD.MM.YYYY"
      dateParser={parseTypedDay}
      placeholder="DD.MM.RRRR"
      leftSection={<IconCalendar size={16} aria-hidden />}
      {...(field === 'date_of_sample' ? { maxDate: today } : {})}
      popoverProps={{ withinPortal: true }}
    />
  );

  const radios = <V extends string>(
    field: 'type_of_test' | 'type_of_material' | 'collect_place',
    label: string,
    options: readonly V[],
    optionLabel: (option: V) => string,
  ) => (
    <Radio.Group
      label={label}
      value={values[field]}
      onChange={(value) => set(field, value as never)}
      error={errors[field]}
    >
      <Group gap="md" mt={6}>
        {options.map((option) => (
          <Radio key={option} value={option} label={optionLabel(option)} />
        ))}
      </Group>
    </Radio.Group>
  );

  return (
    <FormModal
      opened
      title={t('samples.form.title')}
      onClose={onClose}
      onSubmit={submit}
      saving={create.isPending}
      submitLabel={t('samples.form.submit')}
    >
      <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-light)">
        <Text size="sm" c="dimmed" id="probe-preview-label">
          {t('samples.form.preview')}
        </Text>
        <Group gap="xs" align="center">
          <Text
            fz={28}
            fw={700}
            ff="monospace"
            data-testid="probe-code-preview"
            aria-labelledby="probe-preview-label"
            aria-live="polite"
            style={{ wordBreak: 'break-all' }}
          >
            {preview.data ?? '—'}
          </Text>
          {preview.isFetching && <Loader size="xs" role="status" aria-label={t('app.loading')} />}
        </Group>
        <Text size="xs" c="dimmed">
          {t('samples.form.previewHint')}
        </Text>
      </Paper>

      <LocalizedDates>
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('samples.form.sample')}
          </Title>
          <MultiSelect
            label={t('samples.form.medicines')}
            required
            data={medicineData}
            value={values.medicine_ids}
            onChange={(ids) => set('medicine_ids', ids)}
            error={errors.medicine_ids}
            searchable
            clearable
            nothingFoundMessage={t('samples.form.noMedicine')}
            comboboxProps={{ withinPortal: true }}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {dateInput('date_of_sample', t('samples.form.dateOfSample'))}
            <Select
              label={t('samples.form.carrier')}
              required
              data={(carriers.data ?? []).map((carrier) => ({
                value: String(carrier.id),
                label: carrier.name,
              }))}
              value={values.carrier_id}
              onChange={(id) => set('carrier_id', id)}
              error={errors.carrier_id}
              placeholder={t('samples.form.choose')}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          {unfitCarrier && (
            <Alert color="yellow" variant="light" role="status">
              {t('samples.form.unfitWarning', {
                carrier: unfitCarrier.name,
                material: t(`probe.material.${values.type_of_material}`),
              })}
            </Alert>
          )}
          <Checkbox
            label={t('samples.form.isCito')}
            checked={values.is_cito}
            onChange={(event) => set('is_cito', event.currentTarget.checked)}
          />
          {radios('type_of_test', t('samples.form.typeOfTest'), TYPES_OF_TEST, (option) =>
            t(`probe.test.${option}`),
          )}
          {radios(
            'type_of_material',
            t('samples.form.typeOfMaterial'),
            TYPES_OF_MATERIAL,
            (option) => t(`probe.material.${option}`),
          )}
          {radios('collect_place', t('samples.form.collectPlace'), COLLECT_PLACES, (option) =>
            t(`probe.place.${option}`),
          )}
          {values.collect_place === 'home' && kitData.length > 0 && (
            <Select
              label={t('probeSets.kitSelect.label')}
              data={kitData}
              value={values.probe_set_kit_id}
              onChange={(id) => set('probe_set_kit_id', id)}
              error={errors.probe_set_kit_id}
              placeholder={t('probeSets.kitSelect.placeholder')}
              clearable
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Select
            label={t('samples.form.visit')}
            data={visitData}
            value={values.visit_id}
            onChange={(id) => set('visit_id', id)}
            error={errors.visit_id}
            placeholder={t('samples.form.noVisit')}
            clearable
            comboboxProps={{ withinPortal: true }}
          />

          <Title order={3} size="h5" mt="sm">
            {t('samples.form.orderer')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('samples.form.ordererFirstname')}
              {...text('ordered_by_firstname')}
            />
            <TextInput label={t('samples.form.ordererSurname')} {...text('ordered_by_surname')} />
            {dateInput('ordered_at', t('samples.form.orderedAt'))}
          </SimpleGrid>

          <Title order={3} size="h5" mt="sm">
            {t('samples.form.patient')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('samples.form.patientFirstname')} {...text('patient_firstname')} />
            <TextInput label={t('samples.form.patientSurname')} {...text('patient_surname')} />
            <TextInput label={t('samples.form.street')} {...text('patient_address_street')} />
            <TextInput label={t('samples.form.building')} {...text('patient_address_building')} />
            <TextInput label={t('samples.form.postcode')} {...text('patient_address_postcode')} />
            <TextInput label={t('samples.form.city')} {...text('patient_address_city')} />
          </SimpleGrid>
          {carriers.isError && (
            <Alert color="red" variant="light">
              {t(commonErrorKey(carriers.error))}
            </Alert>
          )}
        </Stack>
      </LocalizedDates>
    </FormModal>
  );
}
