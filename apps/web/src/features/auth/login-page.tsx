import {
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginBody } from '@portal/shared';
import type { AccountRole, LoginBody } from '@portal/shared';
import { LanguageSwitch } from '../../components/language-switch';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError } from '../../lib/notify';
import { sessionStore } from '../../lib/session';
import { useZodForm } from '../../lib/use-zod-form';
import { login } from './auth-api';
import { useSupportPhone } from './use-support-phone';

/** The accounts that sign in here, in the role choice's order (a monitor: ADR 051). */
const STAFF_ROLES = ['admin', 'doctor', 'iod', 'monitor'] as const;

/**
 * The only screen without a session. On success the session is stored and the route guard takes
 * the user to the landing list (or to the change-password screen).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [role, setRole] = useState<Exclude<AccountRole, 'patient'>>('admin');
  const form = useZodForm(loginBody, { login: '', password: '' });
  const support = useSupportPhone();

  const mutation = useMutation({
    mutationFn: (body: LoginBody) => login(role, body),
    onSuccess: (answer) => sessionStore.set({ token: answer.access_token, user: answer.user }),
    onError: (error) => {
      if (isApiError(error) && error.httpStatus === 401) notifyError(t('auth.invalidCredentials'));
      else if (isApiError(error) && error.httpStatus === 429)
        notifyError(t('auth.tooManyAttempts'));
      else notifyError(t(commonErrorKey(error)));
    },
  });

  return (
    <Center mih="100dvh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420} component="main">
        <form onSubmit={form.onSubmit((body) => mutation.mutate(body))} noValidate>
          <Stack gap="md">
            <Group justify="space-between" align="flex-start">
              <div>
                <Text size="sm" c="dimmed">
                  {t('app.title')}
                </Text>
                <Title order={1} size="h2">
                  {t('auth.loginTitle')}
                </Title>
              </div>
              <LanguageSwitch />
            </Group>

            {/* Four account kinds do not fit side by side in the login card: one under another. */}
            <SegmentedControl
              fullWidth
              orientation="vertical"
              aria-label={t('auth.role')}
              value={role}
              onChange={(value) => setRole(STAFF_ROLES.find((staff) => staff === value) ?? 'admin')}
              data={[
                { value: 'admin', label: t('auth.roleAdmin') },
                { value: 'doctor', label: t('auth.roleDoctor') },
                { value: 'iod', label: t('auth.roleIod') },
                { value: 'monitor', label: t('auth.roleMonitor') },
              ]}
            />

            <TextInput
              label={t('auth.login')}
              description={
                role === 'doctor'
                  ? t('auth.doctorLoginHint')
                  : role === 'monitor'
                    ? t('auth.monitorLoginHint')
                    : undefined
              }
              autoComplete="username"
              data-autofocus
              {...form.getInputProps('login')}
            />
            <PasswordInput
              label={t('auth.password')}
              autoComplete="current-password"
              visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
              {...form.getInputProps('password')}
            />
            <Button type="submit" fullWidth loading={mutation.isPending} mt="sm">
              {t('auth.submit')}
            </Button>
          </Stack>
        </form>
        {support && (
          <Text size="sm" c="dimmed" ta="center" mt="lg">
            {t('phone.help')} <a href={`tel:${support.replace(/\s/g, '')}`}>{support}</a>
          </Text>
        )}
      </Paper>
    </Center>
  );
}
