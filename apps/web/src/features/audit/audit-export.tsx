import { Group } from '@mantine/core';
import { IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DownloadButton } from '../../components/download-button';
import { useDownload } from '../../lib/download';
import { auditParams } from './audit-filters';
import type { AuditFilters } from './audit-filters';

/**
 * "Eksport PDF" and "Eksport CSV" of the trail as the screen filters it now
 * (`GET /api/audit_trial/export.pdf|.csv`, ADR 049), for holders of `audit.export`.
 */
export function AuditExport({ filters }: { filters: AuditFilters }) {
  const { t } = useTranslation();
  const exportTrail = useDownload((format: 'pdf' | 'csv') => ({
    path: `/audit_trial/export.${format}`,
    query: auditParams(filters),
    fileName: `audit.${format}`,
  }));
  return (
    <Group gap="sm">
      <DownloadButton
        download={exportTrail}
        variables="pdf"
        variant="default"
        leftSection={<IconFileTypePdf size={16} aria-hidden />}
      >
        {t('audit.exportPdf')}
      </DownloadButton>
      <DownloadButton
        download={exportTrail}
        variables="csv"
        variant="default"
        leftSection={<IconFileTypeCsv size={16} aria-hidden />}
      >
        {t('audit.exportCsv')}
      </DownloadButton>
    </Group>
  );
}
