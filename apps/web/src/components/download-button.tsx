import { Button } from '@mantine/core';
import type { ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { DownloadState } from '../lib/download';

/**
 * A button that downloads a file (lib/download.ts: `useDownload`): it spins, and says it is busy
 * to screen readers, while that file is on its way.
 */
export function DownloadButton<V>({
  download,
  variables,
  children,
  ...button
}: Omit<ButtonProps, 'loading'> & {
  download: DownloadState<V>;
  /** Which file, when the download has variants (a format, pseudonymised or not). */
  variables: V;
  children: ReactNode;
}) {
  const busy = download.busy(variables);
  return (
    <Button {...button} loading={busy} aria-busy={busy} onClick={() => download.start(variables)}>
      {children}
    </Button>
  );
}
