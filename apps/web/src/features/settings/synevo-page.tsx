import { Button, Checkbox, Group, Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { STRING_MAX, formatDateTime, requiredText, text } from '@portal/shared';
import type { SynevoView } from '@portal/shared';
import { useLabErrorText } from '../../lib/lab-errors';
import { notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useReloadSetting, useSaveSetting, useSetting } from './settings-api';

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

/** The server names the fields of `value`; the form's fields are the value's own. */
function valueFieldErrors(errors: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    result[key.startsWith('value.') ? key.slice('value.'.length) : key] = message;
  }
  return result;
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
  const save = useSaveSetting('synevo');
  const reload = useReloadSetting('synevo');
  const [version, setVersion] = useState(initialVersion);
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

  const submit = form.onSubmit((value) =>
    save.mutate(
      {
        // The save takes the written shape (SynevoValue: the typed password, empty keeps the
        // stored one), while the settings cache holds the read shape (SynevoView).
        value: value as unknown as SynevoView,
        version,
      },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          setPasswordSet(saved.value.password_set);
          form.reset({
            login: saved.value.login,
            password: '',
            unit_code: saved.value.unit_code,
            enable_results_import: saved.value.enable_results_import,
          });
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

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
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
