import { useTranslation } from 'react-i18next';
import { phoneValue } from '@portal/shared';
import type { PhoneValue } from '@portal/shared';
import { PhoneInput } from '../../components/phone-input';
import { SettingsForm } from '../../components/settings-form';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useSettingSave } from './use-setting-save';

function PhoneForm({ initial, initialVersion }: { initial: PhoneValue; initialVersion: number }) {
  const { t } = useTranslation();
  const form = useZodForm<PhoneValue, typeof phoneValue>(phoneValue, { ...initial });
  const { save, saving } = useSettingSave('phone', initialVersion, {
    setServerErrors: form.setServerErrors,
    onSaved: (saved) => form.reset({ ...saved.value }),
  });
  const submit = form.onSubmit(save);

  // Typed as the 9 digits after a fixed +48, like a doctor's phone.
  const phoneInput = (field: keyof PhoneValue, label: string, description: string) => (
    <PhoneInput label={label} description={description} required {...form.getInputProps(field)} />
  );

  return (
    <SettingsForm onSubmit={submit} saving={saving} maw={520} hint={t('phone.hint')}>
      {phoneInput('courier', t('phone.courier'), t('phone.courierHint'))}
      {phoneInput('support', t('phone.support'), t('phone.supportHint'))}
    </SettingsForm>
  );
}

/** Settings › Phone numbers: the courier's and the support line's, both required. */
export function PhoneSettingsPage() {
  const { t } = useTranslation();
  return (
    <SettingScreen
      name="phone"
      title={t('nav.settingsPhone')}
      form={(initial, version) => <PhoneForm initial={initial} initialVersion={version} />}
    />
  );
}
