import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDownload } from '../../../lib/download';

/**
 * "Kopia danych pacjenta" (GDPR art. 15 and 20, ADR 054): everything stored about the patient as
 * a readable PDF or a machine-readable JSON, for administrators.
 */
export function PatientCopyMenu({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const copy = useDownload(
    (format: 'pdf' | 'json') => ({
      path: `/patients/${patientId}/export.${format}`,
      fileName: `pacjent-${patientId}-kopia-danych.${format}`,
    }),
    () => t('card.copy.fail'),
  );
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          px={0}
          leftSection={<IconFileExport size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={copy.busy()}
        >
          {t('card.copy.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => copy.start('pdf')}>{t('card.copy.pdf')}</Menu.Item>
        <Menu.Item onClick={() => copy.start('json')}>{t('card.copy.json')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
