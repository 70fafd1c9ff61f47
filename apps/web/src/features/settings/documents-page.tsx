import '@mantine/dropzone/styles.layer.css';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { Dropzone } from '@mantine/dropzone';
import { DropzoneContent } from '../../components/dropzone-content';
import type { FileRejection } from '@mantine/dropzone';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { DOCUMENT_EXTENSIONS, DOCUMENT_PANELS, MAX_FILE_BYTES } from '@portal/shared';
import type { DocumentPanel, PanelDocument } from '@portal/shared';
import { DOCUMENT_ACCEPT, documentProblem } from '../../lib/document-file';
import { confirmAction } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { PanelDocumentList } from '../../components/panel-document-list';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useDeletePanelDocument, usePanelDocuments, useUploadPanelDocument } from './documents-api';

const isPanel = (panel: string | undefined): panel is DocumentPanel =>
  (DOCUMENT_PANELS as readonly (string | undefined)[]).includes(panel);

function PanelDocuments({ panel }: { panel: DocumentPanel }) {
  const { t } = useTranslation();
  const documents = usePanelDocuments(panel);
  const upload = useUploadPanelDocument(panel);
  const remove = useDeletePanelDocument(panel);
  const openRef = useRef<() => void>(null);
  const title = panel === 'doctor' ? t('documents.titleDoctor') : t('documents.titlePatient');

  const problemText = (problem: 'type' | 'size') =>
    problem === 'type' ? t('validation.invalid_file_type') : t('validation.file_too_large');

  function send(dropped: File[]) {
    const [file] = dropped;
    if (!file) return;
    if (dropped.length > 1) return notifyError(t('card.files.oneFile'));
    const problem = documentProblem(file);
    if (problem) return notifyError(problemText(problem));
    upload.mutate(file, {
      onSuccess: () => notifySuccess(t('card.files.file_successfully_uploaded')),
      // The server names what is wrong with the file in the user's language, when it can.
      onError: (error) =>
        notifyError(serverFieldErrors(error).file ?? t('card.files.file_unsuccessfully_uploaded')),
    });
  }

  function reject(rejections: FileRejection[]) {
    const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
    if (codes.includes('too-many-files')) notifyError(t('card.files.oneFile'));
    else if (codes.includes('file-invalid-type')) notifyError(problemText('type'));
    else if (codes.includes('file-too-large')) notifyError(problemText('size'));
    else notifyError(t('card.files.file_unsuccessfully_uploaded'));
  }

  function askDelete(document: PanelDocument) {
    confirmAction({
      question: t('documents.confirmDelete', { name: document.original_name }),
      danger: true,
      onConfirm: () =>
        remove.mutate(document.id, {
          onSuccess: () => notifySuccess(t('documents.removed')),
          onError: (error) => notifyError(t(commonErrorKey(error))),
        }),
    });
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button
            leftSection={<IconUpload size={18} aria-hidden />}
            loading={upload.isPending}
            onClick={() => openRef.current?.()}
          >
            {t('documents.choose')}
          </Button>
        }
      />
      <Text size="sm" c="dimmed">
        {panel === 'doctor' ? t('documents.hintDoctor') : t('documents.hintPatient')}
      </Text>
      <Paper withBorder radius="md" p={0} aria-busy={upload.isPending}>
        <Dropzone
          openRef={openRef}
          onDrop={send}
          onReject={reject}
          accept={DOCUMENT_ACCEPT}
          maxSize={MAX_FILE_BYTES}
          maxFiles={1}
          multiple={false}
          loading={upload.isPending}
          disabled={upload.isPending}
          aria-label={t('documents.dropLabel')}
          inputProps={{ 'aria-label': t('documents.dropLabel') }}
          style={{ border: 0 }}
        >
          <DropzoneContent
            title={t('card.files.dropTitle')}
            hint={t('card.files.dropHint', { extensions: DOCUMENT_EXTENSIONS.join(', ') })}
          />
        </Dropzone>
      </Paper>
      {upload.isPending && (
        <Text size="sm" c="dimmed" role="status">
          {t('card.files.uploading')}
        </Text>
      )}
      <PanelDocumentList query={documents} label={title} onDelete={askDelete} />
    </Stack>
  );
}

/**
 * Settings › "Dokumenty lekarza" / "Dokumenty pacjenta" (`/settings/documents/{panel}`): upload
 * (one txt or pdf), list, download and delete a panel's documents.
 */
export function DocumentsSettingsPage() {
  const { panel } = useParams();
  if (!isPanel(panel)) return <Navigate to="/" replace />;
  // Keyed by panel: switching panels in the menu starts from a fresh screen.
  return <PanelDocuments key={panel} panel={panel} />;
}
