import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconExternalLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STRING_MAX } from '@portal/shared';
import type { Medicine } from '@portal/shared';
import { decimalSeparator, formatNumber } from '../../../entities/patients/patient-format';
import type { MedicineValue, OtherMedicineValue, WizardAction } from './wizard-state';

const CUSTOM = 'custom';

/** A listed dose, or 'Inna dawka' with a number in mg. */
function MedicineDose({
  medicine,
  value,
  dispatch,
}: {
  medicine: Medicine;
  value: MedicineValue;
  dispatch: (action: WizardAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const [custom, setCustom] = useState(value.dose !== null && !medicine.doses.includes(value.dose));
  // Focus moves to the number only when the user has just chosen 'Inna dawka'.
  const [justChosen, setJustChosen] = useState(false);
  const setDose = (dose: number | null) =>
    dispatch({ type: 'setMedicineDose', medicineId: medicine.id, dose });
  const options = [
    ...medicine.doses.map((dose) => ({
      value: String(dose),
      label: t('patients.medicines.doseMg', { dose: formatNumber(dose, i18n.language, 3) }),
    })),
    { value: CUSTOM, label: t('patients.medicines.customDose') },
  ];
  const selected = custom ? CUSTOM : value.dose === null ? null : String(value.dose);

  return (
    <Group gap="sm" align="flex-start" wrap="wrap" mt="xs">
      <Select
        label={t('patients.medicines.dose')}
        aria-label={t('patients.medicines.doseOf', { name: medicine.name })}
        placeholder={t('patients.medicines.dosePlaceholder')}
        data={options}
        value={selected}
        onChange={(next) => {
          if (next === CUSTOM) {
            setCustom(true);
            setJustChosen(true);
            setDose(null);
          } else {
            setCustom(false);
            setDose(next === null ? null : Number(next));
          }
        }}
        clearable
        allowDeselect={false}
        w={180}
      />
      {custom && (
        <NumberInput
          label={t('patients.medicines.customDoseMg')}
          aria-label={t('patients.medicines.customDoseOf', { name: medicine.name })}
          value={value.dose ?? ''}
          onChange={(next) => setDose(typeof next === 'number' ? next : null)}
          min={0}
          max={100000}
          decimalScale={3}
          hideControls
          inputMode="decimal"
          decimalSeparator={decimalSeparator(i18n.language)}
          suffix=" mg"
          w={160}
          autoFocus={justChosen}
        />
      )}
    </Group>
  );
}

/**
 * Step 3: study medicines (only visible ones offered) and other medicines (docs/product-rules.md
 * "Patient wizard").
 */
export function MedicinesStep({
  medicines,
  selected,
  others,
  nextKey,
  errors,
  dispatch,
}: {
  medicines: Medicine[];
  selected: MedicineValue[];
  others: OtherMedicineValue[];
  /** Key the next added row gets, so that its name input takes the focus. */
  nextKey: number;
  errors: Record<string, string>;
  dispatch: (action: WizardAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const [focusKey, setFocusKey] = useState<number | null>(null);
  const chosen = new Map(selected.map((m) => [m.medicine_id, m]));
  // Hidden medicines are not offered, but one already on the record can still be unticked.
  const listed = medicines.filter((m) => m.is_visible || chosen.has(m.id));
  const medicineErrors = Object.entries(errors)
    .filter(([key]) => key === 'medicines' || key.startsWith('medicines.'))
    .map(([, message]) => message);
  const otherError = errors.additional_medicines;

  return (
    <Stack gap="lg">
      <Stack gap="xs" component="section">
        <Title order={3} size="h5">
          {t('patients.medicines.studyTitle')}
        </Title>
        {medicineErrors.length > 0 && (
          <Alert color="red" role="alert">
            {[...new Set(medicineErrors)].join(' ')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          {listed.map((medicine) => {
            const value = chosen.get(medicine.id);
            return (
              <Paper key={medicine.id} withBorder p="sm">
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                  <Checkbox
                    label={medicine.name}
                    description={
                      medicine.is_visible ? medicine.inn : t('patients.medicines.hidden')
                    }
                    checked={!!value}
                    onChange={() =>
                      dispatch({
                        type: 'toggleMedicine',
                        medicine: { id: medicine.id, doses: medicine.doses },
                      })
                    }
                  />
                  {medicine.cas && (
                    <Anchor
                      href={medicine.link}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="xs"
                      aria-label={t('patients.medicines.casLinkLabel', {
                        cas: medicine.cas,
                        name: medicine.name,
                      })}
                      style={{ whiteSpace: 'nowrap', display: 'inline-flex', gap: 4 }}
                    >
                      {t('patients.medicines.casLink', { cas: medicine.cas })}
                      <IconExternalLink size={14} aria-hidden />
                    </Anchor>
                  )}
                </Group>
                {value && <MedicineDose medicine={medicine} value={value} dispatch={dispatch} />}
              </Paper>
            );
          })}
        </SimpleGrid>
      </Stack>

      <Stack gap="xs" component="section">
        <Title order={3} size="h5">
          {t('patients.medicines.othersTitle')}
        </Title>
        {otherError && (
          <Alert color="red" role="alert">
            {otherError}
          </Alert>
        )}
        {others.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('patients.medicines.noOthers')}
          </Text>
        )}
        {others.map((other, index) => (
          <Group key={other.key} gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              label={t('patients.medicines.otherName')}
              value={other.name}
              onChange={(event) =>
                dispatch({ type: 'setOther', key: other.key, name: event.currentTarget.value })
              }
              error={errors[`additional_medicines.${index}.name`]}
              maxLength={STRING_MAX}
              withAsterisk
              autoFocus={other.key === focusKey}
              style={{ flex: '1 1 220px' }}
              maw={480}
            />
            <NumberInput
              label={t('patients.medicines.otherDose')}
              value={other.dose}
              onChange={(value) => dispatch({ type: 'setOther', key: other.key, dose: value })}
              error={errors[`additional_medicines.${index}.dose`]}
              min={0}
              max={100000}
              decimalScale={3}
              hideControls
              inputMode="decimal"
              decimalSeparator={decimalSeparator(i18n.language)}
              w={140}
            />
            <Tooltip label={t('patients.medicines.removeOther')}>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mt={25}
                aria-label={t('patients.medicines.removeOtherNamed', {
                  name: other.name || index + 1,
                })}
                onClick={() => dispatch({ type: 'removeOther', key: other.key })}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        <div>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => {
              setFocusKey(nextKey);
              dispatch({ type: 'addOther' });
            }}
          >
            {t('patients.medicines.addOther')}
          </Button>
        </div>
      </Stack>
    </Stack>
  );
}
