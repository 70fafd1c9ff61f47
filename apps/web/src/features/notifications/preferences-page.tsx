import {
  Alert,
  Checkbox,
  Fieldset,
  Group,
  Loader,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationPreferences, NotificationType } from '@portal/shared';
import { PageHeader } from '../../components/page-header';
import { SettingsForm } from '../../components/settings-form';
import { commonErrorKey } from '../../lib/api-errors';
import { notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { usePreferences, useSavePreferences } from './notifications-api';

function PreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const { t } = useTranslation();
  const save = useSavePreferences();
  const [email, setEmail] = useState(initial.email);
  const [address, setAddress] = useState(initial.email_address ?? '');
  const [language, setLanguage] = useState(initial.language);
  const [version, setVersion] = useState(initial.version);
  const [addressError, setAddressError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAddressError(null);
    save.mutate(
      {
        email,
        email_address: address,
        language,
        version,
      },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          setEmail(saved.email);
          setAddress(saved.email_address ?? '');
          notifySuccess(t('common.saved'));
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: (fields) => setAddressError(fields.email_address ?? null),
            reload: () => Promise.resolve(initial),
            setVersion: (fresh) => setVersion(fresh ?? 0),
            t,
          }),
      },
    );
  };

  return (
    <SettingsForm onSubmit={submit} saving={save.isPending} maw={560}>
      <Text size="sm">{t('notifications.preferences.intro')}</Text>
      <Fieldset legend={t('notifications.preferences.emailKinds')} variant="unstyled">
        <Stack gap="xs">
          {Object.keys(email).map((kind) => (
            <Checkbox
              key={kind}
              label={t(`notifications.preferences.kind.${kind as NotificationType}`)}
              checked={email[kind] ?? false}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setEmail((current) => ({ ...current, [kind]: on }));
              }}
            />
          ))}
        </Stack>
      </Fieldset>
      <TextInput
        type="email"
        label={t('notifications.preferences.emailAddress')}
        description={
          initial.account_email
            ? t('notifications.preferences.emailAddressHint', {
                account: initial.account_email,
              })
            : t('notifications.preferences.emailAddressNone')
        }
        value={address}
        onChange={(e) => setAddress(e.currentTarget.value)}
        error={addressError ?? undefined}
        autoComplete="email"
      />
      <Radio.Group
        label={t('notifications.preferences.language')}
        value={language}
        onChange={(value) => setLanguage(value === 'en' ? 'en' : 'pl')}
      >
        <Group mt="xs">
          <Radio value="pl" label={t('notifications.preferences.languagePl')} />
          <Radio value="en" label={t('notifications.preferences.languageEn')} />
        </Group>
      </Radio.Group>
    </SettingsForm>
  );
}

/** "Ustawienia powiadomień": which e-mails the signed-in user receives, where and in which language. */
export function NotificationPreferencesPage() {
  const { t } = useTranslation();
  const preferences = usePreferences();
  return (
    <>
      <PageHeader title={t('notifications.preferences.title')} />
      {preferences.isPending && <Loader role="status" aria-label={t('app.loading')} />}
      {preferences.isError && (
        <Alert color="red" variant="light">
          {t(commonErrorKey(preferences.error))}
        </Alert>
      )}
      {preferences.data && <PreferencesForm initial={preferences.data} />}
    </>
  );
}
