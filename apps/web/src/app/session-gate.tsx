import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { restoreSession } from '../lib/session-actions';

/** Holds the screens back until the stored session has been checked, so nobody sees a flash. */
export function SessionGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let active = true;
    void restoreSession().then(() => {
      if (active) setReady(true);
    });
    return () => {
      active = false;
    };
  }, []);

  if (!ready) {
    return (
      <Center h="100dvh">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  return children;
}
