import { Alert, Button, Group, Paper, PasswordInput, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { changePasswordBody, PASSWORD_CHANGED_REDIRECT_MS } from '@portal/shared';
import type { ChangePasswordBody } from '@portal/shared';
import { PageHeader } from '../../components/page-header';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { sessionStore, useSession } from '../../lib/session';
import { landingPath, mustChangePassword } from '../../lib/session-rules';
import { useZodForm } from '../../lib/use-zod-form';
import { changePassword } from './auth-api';

export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const forced = session ? mustChangePassword(session.user) : false;
  const redirect = useRef<number | undefined>(undefined);
  const form = useZodForm(changePasswordBody, {
    oldPassword: '',
    newPassword: '',
    passwordConfirm: '',
  });

  useEffect(() => () => window.clearTimeout(redirect.current), []);

  const mutation = useMutation({
    mutationFn: (body: ChangePasswordBody) => changePassword(body),
    onSuccess: (answer) => {
      // The server ended every earlier session and started this one.
      sessionStore.set({ token: answer.access_token, user: answer.user });
      notifySuccess(t('common.saved'));
      form.reset({ oldPassword: '', newPassword: '', passwordConfirm: '' });
      redirect.current = window.setTimeout(
        () => void navigate(landingPath(answer.user), { replace: true }),
        PASSWORD_CHANGED_REDIRECT_MS,
      );
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (Object.keys(fields).length > 0) form.setServerErrors(fields);
      else if (!isApiError(error) || error.httpStatus !== 401)
        notifyError(t(commonErrorKey(error)));
    },
  });

  const toggle = { 'aria-label': t('auth.showPassword') };

  return (
    <>
      <PageHeader title={t('auth.changePasswordTitle')} />
      <Paper withBorder p="lg" radius="md" maw={520}>
        <form onSubmit={form.onSubmit((body) => mutation.mutate(body))} noValidate>
          <Stack gap="md">
            {forced && (
              <Alert color="blue" variant="light">
                {t('auth.mustChangePassword')}
              </Alert>
            )}
            <PasswordInput
              label={t('auth.oldPassword')}
              autoComplete="current-password"
              required
              visibilityToggleButtonProps={toggle}
              {...form.getInputProps('oldPassword')}
            />
            <PasswordInput
              label={t('auth.newPassword')}
              autoComplete="new-password"
              required
              visibilityToggleButtonProps={toggle}
              {...form.getInputProps('newPassword')}
            />
            <PasswordInput
              label={t('auth.passwordConfirm')}
              autoComplete="new-password"
              required
              visibilityToggleButtonProps={toggle}
              {...form.getInputProps('passwordConfirm')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={mutation.isPending}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
