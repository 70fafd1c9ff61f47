import {
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RESULT_PLAUSIBLE_MAX, warsawToday } from '@portal/shared';
import type { Probe } from '@portal/shared';
import { queryKeys } from '../../api/query-keys';
import { useIsPhone } from '../../components/use-is-desktop';
import { commonErrorKey, isStaleVersion, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSaveResults } from './probe-api';
import { RESULT_UNITS, resultFromInput } from './probe-format';

const ANALYTES = ['alt', 'ast', 'creatine', 'bilirubine'] as const;
type Analyte = (typeof ANALYTES)[number];
type Field = number | string;

interface FormValues {
  biochemistry: Record<Analyte, Field>;
  hours: Field;
  dateOfAnalysis: string;
  concentrations: Record<number, Field>;
}

function initialValues(probe: Probe): FormValues {
  const b = probe.biochemistry_results;
  const c = probe.concentrations_results;
  return {
    biochemistry: {
      alt: b.alt ?? '',
      ast: b.ast ?? '',
      creatine: b.creatine ?? '',
      bilirubine: b.bilirubine ?? '',
    },
    hours: c.hours ?? '',
    dateOfAnalysis: c.date_of_analysis ?? '',
    concentrations: Object.fromEntries(
      probe.medicine_ids.map((id) => [
        id,
        c.concentrations.find((row) => row.medicine_id === id)?.value ?? '',
      ]),
    ),
  };
}

/** A result: no minus sign, no text, decimals with a comma or a dot; empty clears it. */
function ResultInput({
  label,
  value,
  onChange,
  error,
  max,
}: {
  label: string;
  value: Field;
  onChange: (value: Field) => void;
  error?: string;
  max: number;
}) {
  return (
    <NumberInput
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      min={0}
      max={max}
      allowNegative={false}
      decimalScale={3}
      decimalSeparator=","
      hideControls
      inputMode="decimal"
    />
  );
}

function ResultsForm({
  probe,
  medicineName,
  onClose,
}: {
  probe: Probe;
  medicineName: (id: number) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useSaveResults(probe.id);
  const [values, setValues] = useState(() => initialValues(probe));
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    save.mutate(
      {
        biochemistry_results: {
          alt: resultFromInput(values.biochemistry.alt),
          ast: resultFromInput(values.biochemistry.ast),
          creatine: resultFromInput(values.biochemistry.creatine),
          bilirubine: resultFromInput(values.biochemistry.bilirubine),
        },
        concentrations_results: {
          hours: resultFromInput(values.hours),
          date_of_analysis: values.dateOfAnalysis || null,
          concentrations: probe.medicine_ids.map((medicineId) => ({
            medicine_id: medicineId,
            value: resultFromInput(values.concentrations[medicineId] ?? ''),
          })),
        },
        version: probe.version,
      },
      {
        onSuccess: () => {
          notifySuccess(t('probeDetail.resultsSaved'));
          onClose();
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (Object.keys(fields).length) {
            setErrors(fields);
            notifyError(t('common.validationError'));
          } else if (isStaleVersion(error)) {
            // Someone saved the sample meanwhile: load their version, keep what was typed.
            void queryClient.invalidateQueries({ queryKey: queryKeys.probe(probe.id) });
            notifyError(t('probeDetail.conflict'));
          } else notifyError(t(commonErrorKey(error)));
        },
      },
    );
  }

  const setAnalyte = (key: Analyte) => (value: Field) =>
    setValues((current) => ({
      ...current,
      biochemistry: { ...current.biochemistry, [key]: value },
    }));

  return (
    <form onSubmit={submit} noValidate aria-busy={save.isPending}>
      <Stack gap="md">
        <Title order={3} size="h5">
          {t('probeDetail.biochemistry')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {ANALYTES.map((key) => (
            <ResultInput
              key={key}
              label={`${t(`probeDetail.analytes.${key}`)} (${RESULT_UNITS[key]})`}
              value={values.biochemistry[key]}
              onChange={setAnalyte(key)}
              error={errors[`biochemistry_results.${key}`]}
              max={RESULT_PLAUSIBLE_MAX[key]}
            />
          ))}
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('probeDetail.concentrations')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {probe.medicine_ids.map((medicineId, index) => (
            <ResultInput
              key={medicineId}
              label={`${medicineName(medicineId)} (${RESULT_UNITS.concentration})`}
              value={values.concentrations[medicineId] ?? ''}
              onChange={(value) =>
                setValues((current) => ({
                  ...current,
                  concentrations: { ...current.concentrations, [medicineId]: value },
                }))
              }
              error={errors[`concentrations_results.concentrations.${index}.value`]}
              max={RESULT_PLAUSIBLE_MAX.concentration}
            />
          ))}
          <ResultInput
            label={t('probeDetail.hours')}
            value={values.hours}
            onChange={(hours) => setValues((current) => ({ ...current, hours }))}
            error={errors['concentrations_results.hours']}
            max={RESULT_PLAUSIBLE_MAX.hours}
          />
          <TextInput
            type="date"
            label={t('probeDetail.dateOfAnalysis')}
            value={values.dateOfAnalysis}
            max={warsawToday()}
            onChange={(event) => {
              const dateOfAnalysis = event.currentTarget.value;
              setValues((current) => ({ ...current, dateOfAnalysis }));
            }}
            error={errors['concentrations_results.date_of_analysis']}
          />
        </SimpleGrid>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('probeDetail.saveResults')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Wprowadź wyniki": the hand entry of a sample's results, mounted only while open. */
export function ResultsDialog({
  probe,
  opened,
  medicineName,
  onClose,
}: {
  probe: Probe;
  opened: boolean;
  medicineName: (id: number) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('probeDetail.enterResultsTitle', { code: probe.code })}
      size="lg"
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <ResultsForm probe={probe} medicineName={medicineName} onClose={onClose} />}
    </Modal>
  );
}
