import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BOOKING_HORIZON_DAYS_MAX, visitsValue } from '@portal/shared';
import type { VisitsValue } from '@portal/shared';
import { SettingsForm } from '../../components/settings-form';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useSettingSave } from './use-setting-save';

/** A number input holds '' while emptied; the shared schema answers that with invalid_number. */
type Num = number | string;
interface WindowRow {
  visit: Num;
  day: Num;
  window_days: Num;
}
interface VisitsFormValues extends Record<string, unknown> {
  visit_start_hour: Num;
  visit_end_hour: Num;
  meeting_length_minutes: Num;
  booking_horizon_days: Num;
  schedule: WindowRow[];
}

/** Largest schedule the shared schema accepts (visits 2 to 99). */
const MAX_ROWS = 98;
const DEFAULT_STEP_DAYS = 28;
const DEFAULT_WINDOW_DAYS = 7;

/** The row an "add" appends: the next visit number, one usual step after the last one. */
function nextRow(schedule: readonly WindowRow[]): WindowRow {
  const last = schedule.at(-1);
  if (!last) return { visit: 2, day: DEFAULT_STEP_DAYS, window_days: DEFAULT_WINDOW_DAYS };
  const visit = Number(last.visit);
  const day = Number(last.day);
  return {
    visit: Number.isInteger(visit) ? visit + 1 : '',
    day: Number.isInteger(day) ? day + DEFAULT_STEP_DAYS : '',
    window_days: last.window_days,
  };
}

/** Whole visits in the day, when the hours and length make sense (a hint beside the form). */
function visitsPerDay(form: VisitsFormValues): number | null {
  const minutes = (Number(form.visit_end_hour) - Number(form.visit_start_hour)) * 60;
  const length = Number(form.meeting_length_minutes);
  if (!(minutes > 0) || !(length > 0) || minutes % length !== 0) return null;
  return minutes / length;
}

function VisitsForm({ initial, initialVersion }: { initial: VisitsValue; initialVersion: number }) {
  const { t } = useTranslation();
  const form = useZodForm<VisitsFormValues, typeof visitsValue>(visitsValue, {
    ...initial,
    schedule: initial.schedule.map((row) => ({ ...row })),
  });
  const { save, saving } = useSettingSave('visits', initialVersion, {
    setServerErrors: form.setServerErrors,
    onSaved: (saved) =>
      form.reset({ ...saved.value, schedule: saved.value.schedule.map((row) => ({ ...row })) }),
  });
  const errors = form.errors as Record<string, string | undefined>;
  const schedule = form.values.schedule;
  const perDay = visitsPerDay(form.values);

  const setRow = (index: number, field: keyof WindowRow, value: Num) =>
    form.setFieldValue(
      'schedule',
      schedule.map((row, i) => (i === index ? { ...row, [field]: value } : row)),
    );

  const submit = form.onSubmit(save);

  /** A required whole number of the day's hours or the meeting length. */
  const wholeNumberInput = (
    field: 'visit_start_hour' | 'visit_end_hour' | 'meeting_length_minutes',
    label: string,
    min: number,
    max: number,
    step = 1,
  ) => (
    <NumberInput
      label={label}
      required
      min={min}
      max={max}
      step={step}
      allowDecimal={false}
      allowNegative={false}
      inputMode="numeric"
      {...form.getInputProps(field)}
    />
  );

  const cellInput = (index: number, field: keyof WindowRow, label: string, max: number) => (
    <NumberInput
      aria-label={t('settings.visits.rowField', { field: label, row: index + 1 })}
      value={schedule[index]?.[field] ?? ''}
      onChange={(value) => setRow(index, field, value)}
      error={errors[`schedule.${index}.${field}`]}
      min={0}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      hideControls
      inputMode="numeric"
      size="sm"
    />
  );

  return (
    <SettingsForm onSubmit={submit} saving={saving} maw={720} gap="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('settings.visits.hoursTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          {wholeNumberInput('visit_start_hour', t('settings.visits.startHour'), 0, 24)}
          {wholeNumberInput('visit_end_hour', t('settings.visits.endHour'), 0, 24)}
          {wholeNumberInput(
            'meeting_length_minutes',
            t('settings.visits.meetingLength'),
            5,
            240,
            5,
          )}
        </SimpleGrid>
        <Text size="sm" c="dimmed" aria-live="polite">
          {perDay === null ? '\u00a0' : t('settings.visits.perDay', { count: perDay })}
        </Text>
        <NumberInput
          label={t('settings.visits.horizon')}
          description={t('settings.visits.horizonHint')}
          required
          min={1}
          max={BOOKING_HORIZON_DAYS_MAX}
          allowDecimal={false}
          allowNegative={false}
          inputMode="numeric"
          maw={320}
          {...form.getInputProps('booking_horizon_days')}
        />
      </Stack>

      <Stack gap="sm">
        <Title order={2} size="h4" id="visit-schedule-title">
          {t('settings.visits.scheduleTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.visits.scheduleHint')}
        </Text>
        {schedule.length === 0 ? (
          <Text size="sm">{t('settings.visits.scheduleEmpty')}</Text>
        ) : (
          <Table aria-labelledby="visit-schedule-title" verticalSpacing={4} horizontalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('settings.visits.visit')}</Table.Th>
                <Table.Th scope="col">{t('settings.visits.day')}</Table.Th>
                <Table.Th scope="col">{t('settings.visits.window')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('common.operations')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {schedule.map((_, index) => (
                // Rows have no identity of their own: the position is what the user edits.
                <Table.Tr key={index}>
                  <Table.Td>{cellInput(index, 'visit', t('settings.visits.visit'), 99)}</Table.Td>
                  <Table.Td>{cellInput(index, 'day', t('settings.visits.day'), 3650)}</Table.Td>
                  <Table.Td>
                    {cellInput(index, 'window_days', t('settings.visits.window'), 365)}
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={t('settings.visits.removeRow', { row: index + 1 })}
                      onClick={() =>
                        form.setFieldValue(
                          'schedule',
                          schedule.filter((__, i) => i !== index),
                        )
                      }
                    >
                      <IconTrash size={18} stroke={1.6} aria-hidden />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {errors.schedule && (
          <Text size="sm" c="red" role="alert">
            {errors.schedule}
          </Text>
        )}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={18} stroke={1.6} aria-hidden />}
            disabled={schedule.length >= MAX_ROWS}
            onClick={() => form.setFieldValue('schedule', [...schedule, nextRow(schedule)])}
          >
            {t('settings.visits.addRow')}
          </Button>
        </Group>
      </Stack>
    </SettingsForm>
  );
}

/** Settings › Visits: the day's hours, the meeting length and the study's visit windows. */
export function VisitsSettingsPage() {
  const { t } = useTranslation();
  return (
    <SettingScreen
      name="visits"
      title={t('settings.visits.title')}
      form={(initial, version) => <VisitsForm initial={initial} initialVersion={version} />}
    />
  );
}
