import { ActionIcon, Button, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import { confirmAction } from '../../../components/confirm';
import { commonErrorKey } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { personName } from '../../../entities/patients/patient-format';
import classes from './card.module.css';
import { HtmlContent } from './html-content';
import { useAddNote, useDeleteNote, useNotes } from './notes-api';
import { RichTextDialog } from '../../../components/rich-text-dialog';
import { TabState } from './tab-state';

/** 'Komentarze lekarza': notes with author and date, newest first; add and delete. */
export function NotesTab({ patientId, readOnly }: { patientId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const notes = useNotes(patientId);
  const add = useAddNote(patientId);
  const remove = useDeleteNote(patientId);
  const [adding, setAdding] = useState(false);

  function save(content: string) {
    add.mutate(content, {
      onSuccess: () => {
        notifySuccess(t('card.notes.added'));
        setAdding(false);
      },
      onError: (error) => notifyError(t(commonErrorKey(error))),
    });
  }

  function askDelete(id: number) {
    confirmAction({
      question: t('list.confirmDelete'),
      danger: true,
      onConfirm: () =>
        remove.mutate(id, {
          onSuccess: () => notifySuccess(t('card.notes.removed')),
          onError: (error) => notifyError(t(commonErrorKey(error))),
        }),
    });
  }

  return (
    <Stack gap="md">
      {!readOnly && (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {t('card.notes.add')}
          </Button>
        </Group>
      )}
      <TabState query={notes} empty={t('card.notes.empty')}>
        {(rows) => (
          <Stack component="ul" gap="sm" className={classes.list}>
            {rows.map((note) => (
              <Card key={note.id} component="li" withBorder padding="md">
                <Group justify="space-between" align="flex-start" wrap="nowrap" mb="xs">
                  <div>
                    <Text fw={600} size="sm">
                      {personName(note.author, t('card.administrator'))}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('card.notes.addedAt')}: {formatDateTime(note.created_at)}
                    </Text>
                  </div>
                  {/* The server says who may delete it (ADR 045). */}
                  {note.abilities.delete && (
                    <Tooltip label={t('card.notes.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('card.notes.delete')}
                        onClick={() => askDelete(note.id)}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
                <HtmlContent html={note.content} />
              </Card>
            ))}
          </Stack>
        )}
      </TabState>

      <RichTextDialog
        opened={adding}
        title={t('card.notes.dialogTitle')}
        label={t('card.notes.content')}
        submitLabel={t('common.save')}
        saving={add.isPending}
        onSubmit={save}
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
}
