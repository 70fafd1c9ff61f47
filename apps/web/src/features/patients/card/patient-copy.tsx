import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';

/** Saves a fetched blob under a name (the bearer token cannot ride on a plain link). */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * "Kopia danych pacjenta" (GDPR art. 15 and 20, ADR 054): everything stored about the patient as
 * a readable PDF or a machine-readable JSON, for administrators.
 */
export function PatientCopyMenu({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const copy = useMutation({
    mutationFn: async (format: 'pdf' | 'json') => {
      const blob = await api.request<Blob>(`/patients/${patientId}/export.${format}`, {
        responseType: 'blob',
      });
      saveBlob(blob, `pacjent-${patientId}-kopia-danych.${format}`);
    },
    onError: () => notifyError(t('card.copy.fail')),
  });
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          px={0}
          leftSection={<IconFileExport size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={copy.isPending}
        >
          {t('card.copy.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => copy.mutate('pdf')}>{t('card.copy.pdf')}</Menu.Item>
        <Menu.Item onClick={() => copy.mutate('json')}>{t('card.copy.json')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
