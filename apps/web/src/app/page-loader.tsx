import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The whole-page loader: while the session is checked and while a screen's code arrives. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center h="100dvh">
      <Loader role="status" aria-label={t('app.loading')} />
    </Center>
  );
}
