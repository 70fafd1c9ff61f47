import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '@portal/shared';
import { queryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';
import toasts from './toasts.module.css';

/**
 * What every screen needs, the login page included. The confirm dialogs' provider lives in the
 * signed-in layout instead: its modal (scroll area, focus trap, floating UI) is not needed to sign
 * in, and the login route stays small (ADR 019).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
      >
        <Notifications
          autoClose={TOAST_AUTO_CLOSE_MS}
          position="top-center"
          containerWidth={400}
          classNames={{ root: toasts.root }}
        />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
