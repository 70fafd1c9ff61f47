import { Button, Group } from '@mantine/core';
import { IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError } from '../../lib/notify';
import { auditParams } from './audit-filters';
import type { AuditFilters } from './audit-filters';

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
 * "Eksport PDF" and "Eksport CSV" of the trail as the screen filters it now
 * (`GET /api/audit_trial/export.pdf|.csv`, ADR 049), for holders of `audit.export`.
 */
export function AuditExport({ filters }: { filters: AuditFilters }) {
  const { t } = useTranslation();
  const exportTrail = useMutation({
    mutationFn: async (format: 'pdf' | 'csv') => {
      const blob = await api.request<Blob>(`/audit_trial/export.${format}`, {
        query: auditParams(filters),
        responseType: 'blob',
      });
      saveBlob(blob, `audit.${format}`);
    },
    onError: (error) => notifyError(t(commonErrorKey(error))),
  });
  const busy = (format: 'pdf' | 'csv') => exportTrail.isPending && exportTrail.variables === format;
  return (
    <Group gap="sm">
      <Button
        variant="default"
        leftSection={<IconFileTypePdf size={16} aria-hidden />}
        loading={busy('pdf')}
        onClick={() => exportTrail.mutate('pdf')}
      >
        {t('audit.exportPdf')}
      </Button>
      <Button
        variant="default"
        leftSection={<IconFileTypeCsv size={16} aria-hidden />}
        loading={busy('csv')}
        onClick={() => exportTrail.mutate('csv')}
      >
        {t('audit.exportCsv')}
      </Button>
    </Group>
  );
}
