import { Checkbox, PasswordInput, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { STRING_MAX, formatDateTime, requiredText, text } from '@portal/shared';
import type { SynevoView } from '@portal/shared';
import { useLabErrorText } from '../../lib/lab-errors';
import { SettingsForm } from '../../components/settings-form';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useSetting } from './settings-api';
import { useSettingSave } from './use-setting-save';

interface SynevoFormValues extends Record<string, unknown> {
  login: string;
  password: string;
  unit_code: string;
  enable_results_import: boolean;
}

/**
 * The rule (login, password, unit_code required); the password only while none is
 * stored: an empty field keeps the stored one.
 */
export function synevoFormSchema(passwordSet: boolean) {
  return z
    .object({
      login: requiredText(),
      password: text({ max: STRING_MAX, trim: false }),
      unit_code: requiredText(),
      enable_results_import: z.boolean(),
    })
    .superRefine((value, ctx) => {
      if (!passwordSet && !value.password)
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'required' });
    });
}

const LAST_ERROR_TOAST = 'synevo-last-error';

/**
 * The integration's last error as an error toast that stays until closed, in the user's
 * language with the sample and the analyte it concerns and when (ADR 032).
 */
function useLastErrorToast() {
  const { t } = useTranslation();
  const lastError = useSetting('synevo_last_error_message');
  const labErrorText = useLabErrorText();
  const stored = lastError.data?.error;
  const said = stored ? labErrorText(stored) : null;
  const message =
    stored && said
      ? stored.at
        ? t('labErrors.lastErrorAt', { message: said, at: formatDateTime(stored.at) })
        : said
      : null;
  useEffect(() => {
    if (!message) return;
    // One toast under a fixed id: a remount (or StrictMode) does not stack copies.
    notifications.hide(LAST_ERROR_TOAST);
    notifications.show({
      id: LAST_ERROR_TOAST,
      color: 'red',
      // No title: Mantine dims the message under one below the contrast WCAG asks for.
      message: t('synevo.lastError', { message }),
      autoClose: false,
      closeButtonProps: { 'aria-label': t('common.close') },
    });
  }, [message, t]);
}

function SynevoForm({ initial, initialVersion }: { initial: SynevoView; initialVersion: number }) {
  const { t } = useTranslation();
  const [passwordSet, setPasswordSet] = useState(initial.password_set);
  const form = useZodForm<SynevoFormValues, ReturnType<typeof synevoFormSchema>>(
    synevoFormSchema(passwordSet),
    {
      login: initial.login,
      password: '',
      unit_code: initial.unit_code,
      // On until switched off (the setting's default is on).
      enable_results_import: initial.enable_results_import,
    },
  );
  const { save, saving } = useSettingSave('synevo', initialVersion, {
    setServerErrors: form.setServerErrors,
    onSaved: (saved) => {
      setPasswordSet(saved.value.password_set);
      form.reset({
        login: saved.value.login,
        password: '',
        unit_code: saved.value.unit_code,
        enable_results_import: saved.value.enable_results_import,
      });
    },
  });
  // The save takes the written shape (SynevoValue: the typed password, empty keeps the stored
  // one), while the settings cache holds the read shape (SynevoView).
  const submit = form.onSubmit((value) => save(value as unknown as SynevoView));

  return (
    <SettingsForm onSubmit={submit} saving={saving} maw={560}>
      <TextInput
        label={t('synevo.login')}
        required
        autoComplete="off"
        {...form.getInputProps('login')}
      />
      <PasswordInput
        label={
          passwordSet
            ? `${t('synevo.password')} (${t('synevo.passwordSet')})`
            : t('synevo.password')
        }
        description={passwordSet ? t('synevo.passwordKeep') : undefined}
        required={!passwordSet}
        autoComplete="new-password"
        visibilityToggleButtonProps={{ 'aria-label': t('synevo.showPassword') }}
        {...form.getInputProps('password')}
      />
      <TextInput
        label={t('synevo.unitCode')}
        required
        autoComplete="off"
        {...form.getInputProps('unit_code')}
      />
      <Checkbox
        label={t('synevo.enableResultsImport')}
        checked={form.values.enable_results_import}
        onChange={(event) =>
          form.setFieldValue('enable_results_import', event.currentTarget.checked)
        }
      />
    </SettingsForm>
  );
}

/** Settings › "Integracja z laboratorium": the laboratory's account and the results import. */
export function SynevoSettingsPage() {
  const { t } = useTranslation();
  useLastErrorToast();
  return (
    <SettingScreen
      name="synevo"
      title={t('nav.settingsSynevo')}
      form={(initial, version) => <SynevoForm initial={initial} initialVersion={version} />}
    />
  );
}
