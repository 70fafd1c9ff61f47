import { NumberInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { recruitmentTargetValue } from '@portal/shared';
import type { RecruitmentTargetValue } from '@portal/shared';
import { SettingsForm } from '../../components/settings-form';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useSettingSave } from './use-setting-save';

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

function RecruitmentTargetForm({
  initial,
  initialVersion,
}: {
  initial: RecruitmentTargetValue;
  initialVersion: number;
}) {
  const { t } = useTranslation();
  const form = useZodForm<TargetInputs, typeof recruitmentTargetValue>(
    recruitmentTargetValue,
    toInputs(initial),
    { toBody: toValue },
  );
  const { save, saving } = useSettingSave('recruitment_target', initialVersion, {
    setServerErrors: form.setServerErrors,
    onSaved: (saved) => form.reset(toInputs(saved.value)),
  });
  const submit = form.onSubmit(save);

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
    <SettingsForm onSubmit={submit} saving={saving} maw={560} hint={t('recruitmentTarget.hint')}>
      {countInput(
        'per_unit_month',
        t('recruitmentTarget.perUnitMonth'),
        t('recruitmentTarget.perUnitMonthHint'),
      )}
      {countInput('total', t('recruitmentTarget.total'), t('recruitmentTarget.totalHint'))}
    </SettingsForm>
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
