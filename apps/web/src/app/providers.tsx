import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_AUTO_CLOSE_MS } from '@portal/shared';
import { isLanguage } from '../i18n/i18n';
import { queryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'pl';
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
      >
        <DatesProvider settings={{ locale, firstDayOfWeek: 1 }}>
          <ModalsProvider>
            <Notifications autoClose={TOAST_AUTO_CLOSE_MS} position="top-right" />
            {children}
          </ModalsProvider>
        </DatesProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
