import '@mantine/dropzone/styles.layer.css';
import { Anchor, Card, Group, Stack, Table, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { DropzoneContent } from '../../../components/dropzone-content';
import type { FileRejection } from '@mantine/dropzone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_EXTENSIONS, MAX_FILE_BYTES, formatDateTime } from '@portal/shared';
import type { FileView } from '@portal/shared';
import { confirmAction } from '../../../components/confirm';
import { useIsDesktop } from '../../../components/use-is-desktop';
import { commonErrorKey, serverFieldErrors } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { ATTACHMENT_ACCEPT, attachmentProblem } from './card-format';
import classes from './card.module.css';
import { downloadFile } from '../../../api/files';
import { useDeleteFile, useFiles, useUploadFile } from './files-api';
import { HtmlContent } from './html-content';
import { TabState } from './tab-state';
import { UploadModal } from './upload-modal';
import { DeleteIconButton } from '../../../components/delete-icon-button';

/** 'Załączniki': a drop zone for one file and the list of the patient's files. */
export function AttachmentsTab({ patientId, readOnly }: { patientId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  const files = useFiles(patientId);
  const upload = useUploadFile(patientId);
  const remove = useDeleteFile(patientId);
  const [chosen, setChosen] = useState<File | null>(null);

  const problemText = (problem: 'invalid_type' | 'too_large') =>
    problem === 'invalid_type' ? t('validation.invalid_file_type') : t('validation.file_too_large');

  function choose(dropped: File[]) {
    const [file] = dropped;
    if (!file) return;
    if (dropped.length > 1) {
      notifyError(t('card.files.oneFile'));
      return;
    }
    const problem = attachmentProblem(file);
    if (problem) notifyError(problemText(problem));
    else setChosen(file);
  }

  function reject(rejections: FileRejection[]) {
    const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
    if (codes.includes('too-many-files')) notifyError(t('card.files.oneFile'));
    else if (codes.includes('file-invalid-type')) notifyError(problemText('invalid_type'));
    else if (codes.includes('file-too-large')) notifyError(problemText('too_large'));
    else notifyError(t('card.files.file_unsuccessfully_uploaded'));
  }

  function send(comment: string | null) {
    if (!chosen) return;
    upload.mutate(
      { file: chosen, comment },
      {
        onSuccess: () => {
          notifySuccess(t('card.files.file_successfully_uploaded'));
          setChosen(null);
        },
        // The server names what is wrong with the file in the user's language, when it can.
        onError: (error) =>
          notifyError(
            serverFieldErrors(error).file ?? t('card.files.file_unsuccessfully_uploaded'),
          ),
      },
    );
  }

  function askDelete(file: FileView) {
    confirmAction({
      question: t('list.confirmDelete'),
      danger: true,
      onConfirm: () =>
        remove.mutate(file.id, {
          onSuccess: () => notifySuccess(t('card.files.removed')),
          onError: (error) => notifyError(t(commonErrorKey(error))),
        }),
    });
  }

  const name = (file: FileView) => (
    <Anchor
      component="button"
      type="button"
      size="sm"
      ta="left"
      style={{ overflowWrap: 'anywhere' }}
      aria-label={t('card.files.download', { name: file.original_name })}
      onClick={() =>
        void downloadFile(file).catch(() => notifyError(t('card.files.downloadError')))
      }
    >
      {file.original_name}
    </Anchor>
  );
  const deleteButton = (file: FileView) =>
    readOnly ? null : (
      <DeleteIconButton
        tooltip={t('card.files.delete')}
        label={`${t('card.files.delete')}: ${file.original_name}`}
        onClick={() => askDelete(file)}
      />
    );

  return (
    <Stack gap="md">
      {!readOnly && (
        <Dropzone
          onDrop={choose}
          onReject={reject}
          accept={ATTACHMENT_ACCEPT}
          maxSize={MAX_FILE_BYTES}
          maxFiles={1}
          multiple={false}
          loading={upload.isPending}
          aria-label={t('card.files.dropLabel')}
          inputProps={{ 'aria-label': t('card.files.dropLabel') }}
        >
          <DropzoneContent
            title={t('card.files.dropTitle')}
            hint={t('card.files.dropHint', { extensions: ATTACHMENT_EXTENSIONS.join(', ') })}
            minHeight={110}
          />
        </Dropzone>
      )}

      <TabState query={files} empty={t('card.files.empty')}>
        {(rows) =>
          isDesktop ? (
            <Table.ScrollContainer minWidth={640}>
              <Table striped verticalSpacing="sm" aria-label={t('card.tabs.attachments')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('card.files.fileName')}</Table.Th>
                    <Table.Th w={170}>{t('card.files.addedAt')}</Table.Th>
                    <Table.Th>{t('card.files.commentColumn')}</Table.Th>
                    {!readOnly && <Table.Th w={100}>{t('common.operations')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((file) => (
                    <Table.Tr key={file.id}>
                      <Table.Td>{name(file)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(file.created_at)}
                      </Table.Td>
                      <Table.Td>
                        {file.comment ? <HtmlContent html={file.comment} /> : '–'}
                      </Table.Td>
                      {!readOnly && <Table.Td>{deleteButton(file)}</Table.Td>}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <Stack component="ul" gap="sm" className={classes.list}>
              {rows.map((file) => (
                <Card key={file.id} component="li" withBorder padding="md">
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <div style={{ minWidth: 0 }}>
                      {name(file)}
                      <Text size="xs" c="dimmed">
                        {t('card.files.addedAt')}: {formatDateTime(file.created_at)}
                      </Text>
                    </div>
                    {deleteButton(file)}
                  </Group>
                  {file.comment && (
                    <div style={{ marginTop: 8 }}>
                      <HtmlContent html={file.comment} />
                    </div>
                  )}
                </Card>
              ))}
            </Stack>
          )
        }
      </TabState>

      <UploadModal
        file={chosen}
        uploading={upload.isPending}
        onUpload={send}
        onClose={() => setChosen(null)}
      />
    </Stack>
  );
}
