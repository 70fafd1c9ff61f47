import '@mantine/dropzone/styles.layer.css';
import { ActionIcon, Button, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { DropzoneContent } from '../../components/dropzone-content';
import type { FileRejection } from '@mantine/dropzone';
import { IconDownload, IconFile, IconTrash, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_EXTENSIONS, MAX_FILE_BYTES } from '@portal/shared';
import type { ImportBatch, ImportMode, RestoreResult } from '@portal/shared';
import { confirmAction } from '../../components/confirm';
import { DownloadButton } from '../../components/download-button';
import { PageHeader } from '../../components/page-header';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { useDownload } from '../../lib/download';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ImportBatches } from './import-batches';
import { useCountsText } from './import-counts';
import {
  IMPORT_ACCEPT,
  MAX_IMPORT_FILES,
  addFiles,
  fileKey,
  formatFileSize,
  importFileProblem,
} from './import-files';
import { ImportResultModal } from './import-result-modal';
import { templateFile, useRestoreBatch, useSendImport } from './imports-api';
import type { ImportPhase } from './imports-api';
import type { ImportOutcome } from './import-outcome';
import { RestoreResultModal } from './restore-result-modal';

/**
 * "Import danych" (`/data_import`, administrators; docs/product-rules.md "Imports"): pick files,
 * import patients or results as one batch, flush what imports wrote and restore it from the
 * batches.
 * A user with a generated password never gets here: RequireSession sends every screen to
 * /changepassword first.
 */
export function ImportPage() {
  const { t, i18n } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [phase, setPhase] = useState<ImportPhase | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [restored, setRestored] = useState<RestoreResult | null>(null);
  const template = useDownload(templateFile);
  const openRef = useRef<() => void>(null);
  const send = useSendImport();
  const restore = useRestoreBatch();
  const countsText = useCountsText();
  const busy = send.isPending || restore.isPending;

  const problemText = (problem: 'type' | 'size') =>
    problem === 'type' ? t('validation.invalid_file_type') : t('validation.file_too_large');

  function pick(picked: File[]) {
    const problems = picked.map(importFileProblem);
    const refused = problems.find((problem) => problem !== null);
    if (refused) notifyError(problemText(refused));
    const next = addFiles(
      files,
      picked.filter((_, index) => problems[index] === null),
    );
    if (next.length > MAX_IMPORT_FILES) {
      notifyError(t('imports.tooManyFiles', { max: MAX_IMPORT_FILES }));
      return;
    }
    setFiles(next);
  }

  function reject(rejections: FileRejection[]) {
    const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
    notifyError(problemText(codes.includes('file-too-large') ? 'size' : 'type'));
  }

  function run(mode: ImportMode) {
    send.mutate(
      { mode, files: mode === 'flush' ? [] : files, onPhase: setPhase },
      {
        onSuccess: (answer) => {
          if (mode === 'flush') {
            if (answer.status === 'success') {
              notifySuccess(t('imports.flushed', { counts: countsText(answer.imported) }));
            } else {
              notifyError(answer.errors.join('\n') || t('common.unexpectedError'));
            }
            return;
          }
          if (answer.status === 'success') setFiles([]);
          setOutcome(answer);
        },
        onError: (error) =>
          notifyError(Object.values(serverFieldErrors(error))[0] ?? t(commonErrorKey(error))),
        onSettled: () => setPhase(null),
      },
    );
  }

  function askFlush() {
    confirmAction({
      question: t('imports.flushQuestion'),
      detail: t('imports.flushDetail'),
      confirmLabel: t('imports.flush'),
      cancelLabel: t('common.cancel'),
      danger: true,
      onConfirm: () => run('flush'),
    });
  }

  function askRestore(batch: ImportBatch) {
    confirmAction({
      question: t('imports.batches.restoreQuestion'),
      detail: t('imports.batches.restoreDetail', { counts: countsText(batch.counts) }),
      onConfirm: () =>
        restore.mutate(batch, {
          onSuccess: (result) => {
            if (result.skipped.length) setRestored(result);
            else
              notifySuccess(t('imports.batches.restored', { counts: countsText(result.restored) }));
          },
          onError: (error) => notifyError(restoreErrorText(error)),
        }),
    });
  }

  function restoreErrorText(error: unknown): string {
    if (isApiError(error) && error.status === 'not_flushed') return t('imports.batches.notFlushed');
    if (isApiError(error) && error.status === 'exist_patient') return t('patients.exist');
    return t(commonErrorKey(error));
  }

  const extensions = IMPORT_EXTENSIONS.map((extension) => `.${extension}`).join(', ');

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('imports.title')}
        actions={
          <Group gap="xs" wrap="wrap">
            {(['patient_data', 'results'] as const).map((mode) => (
              <DownloadButton
                key={mode}
                download={template}
                variables={mode}
                variant="default"
                leftSection={<IconDownload size={18} aria-hidden />}
              >
                {t(`imports.template.${mode}`)}
              </DownloadButton>
            ))}
          </Group>
        }
      />

      <Stack gap="sm" component="section" aria-label={t('imports.filesSection')}>
        <Paper withBorder radius="md" p={0} aria-busy={busy}>
          <Dropzone
            openRef={openRef}
            onDrop={pick}
            onReject={reject}
            accept={IMPORT_ACCEPT}
            maxSize={MAX_FILE_BYTES}
            multiple
            disabled={busy}
            aria-label={t('imports.dropLabel')}
            inputProps={{ 'aria-label': t('imports.dropLabel') }}
            style={{ border: 0 }}
          >
            <DropzoneContent
              title={t('imports.dropTitle')}
              hint={t('imports.dropHint', { extensions })}
            />
          </Dropzone>
        </Paper>
        <Group>
          <Button
            variant="light"
            leftSection={<IconUpload size={18} aria-hidden />}
            disabled={busy}
            onClick={() => openRef.current?.()}
          >
            {t('imports.choose')}
          </Button>
        </Group>

        {files.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('imports.noFiles')}
          </Text>
        ) : (
          <Stack
            gap={4}
            component="ul"
            role="list"
            aria-label={t('imports.chosenFiles')}
            p={0}
            m={0}
          >
            {files.map((file) => (
              <Group
                key={fileKey(file)}
                component="li"
                gap="sm"
                wrap="nowrap"
                justify="space-between"
                style={{ listStyle: 'none' }}
              >
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <IconFile size={18} aria-hidden style={{ flexShrink: 0 }} />
                  <Text size="sm" style={{ wordBreak: 'break-all' }}>
                    {file.name}
                  </Text>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatFileSize(file.size, i18n.language)}
                  </Text>
                </Group>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  disabled={busy}
                  aria-label={t('imports.removeFile', { name: file.name })}
                  onClick={() => setFiles((chosen) => chosen.filter((f) => f !== file))}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}

        <Group gap="sm" wrap="wrap">
          <Button color="red" variant="outline" disabled={busy} onClick={askFlush}>
            {t('imports.flush')}
          </Button>
          <Button disabled={busy || files.length === 0} onClick={() => run('results')}>
            {t('imports.importResults')}
          </Button>
          <Button disabled={busy || files.length === 0} onClick={() => run('patient_data')}>
            {t('imports.importPatients')}
          </Button>
        </Group>

        {phase?.kind === 'uploading' && (
          <Stack gap={4}>
            <Progress
              value={phase.percent}
              aria-label={t('imports.uploading', { percent: phase.percent })}
            />
            <Text size="sm" c="dimmed" role="status">
              {t('imports.uploading', { percent: phase.percent })}
            </Text>
          </Stack>
        )}
        {phase?.kind === 'processing' && (
          <Group gap="xs" role="status">
            <Loader size="xs" aria-hidden />
            <Text size="sm" c="dimmed">
              {t('imports.processing')}
            </Text>
          </Group>
        )}
      </Stack>

      <ImportBatches busy={busy} onRestore={askRestore} />
      <ImportResultModal outcome={outcome} onClose={() => setOutcome(null)} />
      <RestoreResultModal result={restored} onClose={() => setRestored(null)} />
    </Stack>
  );
}
