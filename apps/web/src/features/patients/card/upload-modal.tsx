import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconFile } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../components/use-is-desktop';
import { isBlankHtml } from '../../../lib/rich-text';
import { RichTextField } from '../../../components/rich-text-field';

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function UploadForm({
  file,
  uploading,
  onUpload,
  onClose,
}: {
  file: File;
  uploading: boolean;
  onUpload: (comment: string | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    onUpload(isBlankHtml(comment) ? null : comment);
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={uploading}>
      <Stack gap="md">
        <div>
          <Text size="sm" fw={500}>
            {t('card.files.chosenFile')}
          </Text>
          <Group gap="xs" wrap="nowrap" mt={4}>
            <IconFile size={18} aria-hidden />
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {file.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              ({sizeText(file.size)})
            </Text>
          </Group>
        </div>
        <RichTextField label={t('card.files.comment')} onChange={setComment} disabled={uploading} />
        {uploading && (
          <Text size="sm" c="dimmed" role="status">
            {t('card.files.uploading')}
          </Text>
        )}
      </Stack>
      <Group justify="flex-end" mt="xl" gap="sm">
        <Button variant="default" onClick={onClose} disabled={uploading}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={uploading}>
          {t('card.files.upload')}
        </Button>
      </Group>
    </form>
  );
}

/**
 * The attachment upload modal (docs/product-rules.md "Screens and layout": width 500 px): the
 * chosen file's name and an optional rich-text comment. While the upload runs it cannot be closed.
 * The form lives only while a file is chosen, so each upload starts with an empty comment.
 */
export function UploadModal({
  file,
  uploading,
  onUpload,
  onClose,
}: {
  file: File | null;
  uploading: boolean;
  onUpload: (comment: string | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const close = () => {
    if (!uploading) onClose();
  };

  return (
    <Modal
      opened={file !== null}
      onClose={close}
      title={t('card.files.uploadTitle')}
      size={500}
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeOnClickOutside={!uploading}
      closeOnEscape={!uploading}
      closeButtonProps={{ 'aria-label': t('common.close'), disabled: uploading }}
    >
      {file && <UploadForm file={file} uploading={uploading} onUpload={onUpload} onClose={close} />}
    </Modal>
  );
}
