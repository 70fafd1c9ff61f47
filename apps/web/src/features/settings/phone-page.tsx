import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PHONE_DIGITS, PHONE_PREFIX, phoneValue } from '@portal/shared';
import type { PhoneValue } from '@portal/shared';
import { notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { SettingScreen } from './setting-screen';
import { useReloadSetting, useSaveSetting } from './settings-api';

/** The server names the fields of `value` (`value.courier`); the form's fields are its own. */
function valueFieldErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [key.replace(/^value\./, ''), message]),
  );
}

function PhoneForm({ initial, initialVersion }: { initial: PhoneValue; initialVersion: number }) {
  const { t } = useTranslation();
  const save = useSaveSetting('phone');
  const reload = useReloadSetting('phone');
  // The version this form edits; a 409 conflict replaces it with the stored one.
  const [version, setVersion] = useState(initialVersion);
  const form = useZodForm<PhoneValue, typeof phoneValue>(phoneValue, { ...initial });

  const submit = form.onSubmit((value) =>
    save.mutate(
      { value, version },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          form.reset({ ...saved.value });
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

  // Typed as the 9 digits after a fixed +48, like a doctor's phone.
  const phoneInput = (field: keyof PhoneValue, label: string, description: string) => (
    <TextInput
      label={label}
      description={description}
      type="tel"
      inputMode="numeric"
      required
      maxLength={PHONE_DIGITS}
      leftSection={PHONE_PREFIX}
      leftSectionWidth={48}
      autoComplete="off"
      {...form.getInputProps(field)}
    />
  );

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={520}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('phone.hint')}
          </Text>
          {phoneInput('courier', t('phone.courier'), t('phone.courierHint'))}
          {phoneInput('support', t('phone.support'), t('phone.supportHint'))}
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
