import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown instead of a blank page when a screen fails to render. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm">
        <Title order={1} size="h3">
          {t('app.title')}
        </Title>
        <Text role="alert">{t('common.unexpectedError')}</Text>
        <Button onClick={() => window.location.assign('/')}>{t('common.reload')}</Button>
      </Stack>
    </Center>
  );
}
