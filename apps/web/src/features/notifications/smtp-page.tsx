import {
  Alert,
  Button,
  Checkbox,
  Loader,
  NumberInput,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SMTP_TEST_FAILURES, formatDateTime } from '@portal/shared';
import type { SmtpTestFailure, SmtpView } from '@portal/shared';
import { PageHeader } from '../../components/page-header';
import { SettingsForm } from '../../components/settings-form';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useFailedMail, useSaveSmtp, useSmtp, useTestSmtp } from './notifications-api';

const isFailure = (status: string): status is SmtpTestFailure =>
  (SMTP_TEST_FAILURES as readonly string[]).includes(status);

function SmtpForm({ initial, initialVersion }: { initial: SmtpView; initialVersion: number }) {
  const { t } = useTranslation();
  const save = useSaveSmtp();
  const test = useTestSmtp();
  const [values, setValues] = useState({ ...initial, password: '' });
  const [version, setVersion] = useState(initialVersion);
  const [passwordSet, setPasswordSet] = useState(initial.password_set);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const set = (field: keyof typeof values, value: string | number | boolean) =>
    setValues((current) => ({ ...current, [field]: value }));
  // The server's messages, already in the user's language, under `value.<field>`.
  const errorOf = (field: string) => errors[`value.${field}`];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const value = {
      host: values.host,
      port: values.port,
      secure: values.secure,
      user: values.user,
      password: values.password,
      from: values.from,
    };
    save.mutate(
      { value, version },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          setPasswordSet(saved.value.password_set);
          setValues({ ...saved.value, password: '' });
          notifySuccess(t('common.saved'));
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: setErrors,
            reload: () => Promise.resolve({ version }),
            setVersion: (fresh) => setVersion(fresh ?? 0),
            t,
          }),
      },
    );
  };

  const runTest = () => {
    setTestResult(null);
    test.mutate(undefined, {
      onSuccess: (answer) =>
        setTestResult({ ok: true, text: t('notifications.smtp.testSent', { to: answer.to }) }),
      onError: (error) => {
        if (isApiError(error) && isFailure(error.status)) {
          const detail = (error.body as { message?: string } | undefined)?.message;
          const said = t(`notifications.smtp.failure.${error.status}`);
          setTestResult({ ok: false, text: detail ? `${said} (${detail})` : said });
        } else notifyError(t(commonErrorKey(error)));
      },
    });
  };

  return (
    <SettingsForm
      onSubmit={submit}
      saving={save.isPending}
      maw={560}
      actions={
        <Button variant="default" onClick={runTest} loading={test.isPending}>
          {t('notifications.smtp.test')}
        </Button>
      }
    >
      <TextInput
        label={t('notifications.smtp.host')}
        required
        value={values.host}
        onChange={(e) => set('host', e.currentTarget.value)}
        error={errorOf('host')}
        autoComplete="off"
      />
      <NumberInput
        label={t('notifications.smtp.port')}
        required
        min={1}
        max={65535}
        allowDecimal={false}
        value={values.port}
        onChange={(value) => set('port', typeof value === 'number' ? value : Number(value))}
        error={errorOf('port')}
      />
      <Checkbox
        label={t('notifications.smtp.secure')}
        checked={values.secure}
        onChange={(e) => set('secure', e.currentTarget.checked)}
      />
      <TextInput
        label={t('notifications.smtp.user')}
        value={values.user}
        onChange={(e) => set('user', e.currentTarget.value)}
        error={errorOf('user')}
        autoComplete="off"
      />
      <PasswordInput
        label={
          passwordSet
            ? `${t('notifications.smtp.password')} (${t('notifications.smtp.passwordSet')})`
            : t('notifications.smtp.password')
        }
        description={passwordSet ? t('notifications.smtp.passwordKeep') : undefined}
        value={values.password}
        onChange={(e) => set('password', e.currentTarget.value)}
        error={errorOf('password')}
        autoComplete="new-password"
        visibilityToggleButtonProps={{ 'aria-label': t('notifications.smtp.showPassword') }}
      />
      <TextInput
        type="email"
        label={t('notifications.smtp.from')}
        required
        value={values.from}
        onChange={(e) => set('from', e.currentTarget.value)}
        error={errorOf('from')}
        autoComplete="off"
      />
      {testResult && (
        <Alert color={testResult.ok ? 'green' : 'red'} variant="light" role="status">
          <Text size="sm" c="dark.9">
            {testResult.text}
          </Text>
        </Alert>
      )}
    </SettingsForm>
  );
}

/** E-mails that did not go, for the administrator to act on (a wrong address, a dead server). */
function FailedMail() {
  const { t } = useTranslation();
  const failed = useFailedMail();
  if (!failed.data) return null;
  return (
    <Stack gap="xs" mt="xl" maw={900}>
      <Title order={2} size="h4">
        {t('notifications.smtp.failed')}
      </Title>
      {failed.data.data.length === 0 ? (
        <Text size="sm">{t('notifications.smtp.failedEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('notifications.smtp.when')}</Table.Th>
                <Table.Th>{t('notifications.smtp.recipient')}</Table.Th>
                <Table.Th>{t('notifications.smtp.attempts')}</Table.Th>
                <Table.Th>{t('notifications.smtp.lastError')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {failed.data.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{formatDateTime(row.created_at)}</Table.Td>
                  <Table.Td>{row.recipient}</Table.Td>
                  <Table.Td>{row.attempts}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{row.last_error}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** Settings › "Serwer poczty": the SMTP server, a test message, and the e-mails that failed. */
export function SmtpSettingsPage() {
  const { t } = useTranslation();
  const smtp = useSmtp();
  return (
    <>
      <PageHeader title={t('notifications.smtp.title')} />
      {smtp.isPending && <Loader role="status" aria-label={t('app.loading')} />}
      {smtp.isError && (
        <Alert color="red" variant="light">
          {t(commonErrorKey(smtp.error))}
        </Alert>
      )}
      {smtp.data && <SmtpForm initial={smtp.data.value} initialVersion={smtp.data.version} />}
      <FailedMail />
    </>
  );
}
