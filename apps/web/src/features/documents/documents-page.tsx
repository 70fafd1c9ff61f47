import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { PanelDocumentList } from '../../components/panel-document-list';
import { useDoctorDocuments } from './documents-api';

/** "Dokumenty": the doctor panel's documents, read and downloaded (administrators manage them). */
export function DocumentsPage() {
  const { t } = useTranslation();
  const documents = useDoctorDocuments();
  return (
    <Stack gap="md">
      <PageHeader title={t('nav.documents')} />
      <PanelDocumentList query={documents} label={t('nav.documents')} />
    </Stack>
  );
}
