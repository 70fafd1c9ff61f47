import { Button, Group, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recruitmentTargetValue } from '@portal/shared';
import type { RecruitmentTargetValue } from '@portal/shared';
import { notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useReloadSetting, useSaveSetting } from './settings-api';

/** What the inputs hold: a number, or '' for an emptied one (no target). */
interface TargetInputs {
  per_unit_month: number | '';
  total: number | '';
}

const toInputs = (value: RecruitmentTargetValue): TargetInputs => ({
  per_unit_month: value.per_unit_month ?? '',
  total: value.total ?? '',
});

/** An emptied input is "no target" (null); anything else goes as typed, for the schema to judge. */
const toValue = (inputs: TargetInputs) => ({
  per_unit_month: inputs.per_unit_month === '' ? null : inputs.per_unit_month,
  total: inputs.total === '' ? null : inputs.total,
});

/** The server names the fields of `value` (`value.total`); the form's fields are its own. */
function valueFieldErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [key.replace(/^value\./, ''), message]),
  );
}

function RecruitmentTargetForm({
  initial,
  initialVersion,
}: {
  initial: RecruitmentTargetValue;
  initialVersion: number;
}) {
  const { t } = useTranslation();
  const save = useSaveSetting('recruitment_target');
  const reload = useReloadSetting('recruitment_target');
  const [version, setVersion] = useState(initialVersion);
  const form = useZodForm<TargetInputs, typeof recruitmentTargetValue>(
    recruitmentTargetValue,
    toInputs(initial),
    { toBody: toValue },
  );

  const submit = form.onSubmit((value) =>
    save.mutate(
      { value, version },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          form.reset(toInputs(saved.value));
          notifySuccess(t('common.saved'));
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: (fields) => form.setServerErrors(valueFieldErrors(fields)),
            reload,
            setVersion: (fresh) => setVersion(fresh ?? 0),
            t,
          }),
      },
    ),
  );

  const countInput = (field: keyof TargetInputs, label: string, description: string) => (
    <NumberInput
      label={label}
      description={description}
      min={1}
      allowNegative={false}
      inputMode="numeric"
      thousandSeparator=" "
      maw={320}
      {...form.getInputProps(field)}
    />
  );

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('recruitmentTarget.hint')}
          </Text>
          {countInput(
            'per_unit_month',
            t('recruitmentTarget.perUnitMonth'),
            t('recruitmentTarget.perUnitMonthHint'),
          )}
          {countInput('total', t('recruitmentTarget.total'), t('recruitmentTarget.totalHint'))}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * Settings › Recruitment target (ADR 060): patients per unit and month and/or in total for the
 * study, either left empty for none; the dashboard's recruitment chart draws it as a line.
 */
export function RecruitmentTargetSettingsPage() {
  const { t } = useTranslation();
  return (
    <SettingScreen
      name="recruitment_target"
      title={t('nav.settingsRecruitmentTarget')}
      form={(initial, version) => (
        <RecruitmentTargetForm initial={initial} initialVersion={version} />
      )}
    />
  );
}
