import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { commonErrorKey } from '../lib/api-errors';
import { notifyError } from '../lib/notify';
import { RichTextDialog } from './rich-text-dialog';
import { useIsPhone } from './use-is-desktop';

/** Which dialog of a message list is open: a new message, or one message to edit or to read. */
export type MessageDialog<T> = { mode: 'send' } | { mode: 'edit' | 'view'; item: T } | null;

/**
 * What a message list does when an edit is refused because someone else changed the message
 * meanwhile (409, stale version): reloads the list and reopens the edit at the new version, so
 * that what was typed stays and may be saved again, or closes it when the message is gone; and
 * says so.
 */
export function useReopenStaleEdit() {
  const { t } = useTranslation();
  return <T extends { id: number }>(
    id: number,
    reload: () => Promise<readonly T[] | undefined>,
    setDialog: (dialog: MessageDialog<T>) => void,
  ) => {
    reload().then(
      (items) => {
        const fresh = items?.find((item) => item.id === id);
        setDialog(fresh ? { mode: 'edit', item: fresh } : null);
        notifyError(t('common.conflict'));
      },
      (error: unknown) => notifyError(t(commonErrorKey(error))),
    );
  };
}

/**
 * The three dialogs of a list of rich-text messages (the card's messages, the announcements):
 * send a new one, edit one with delete, and read one. The screen keeps the state and the calls;
 * this keeps the dialogs alike.
 */
export function MessageDialogs<T extends { content: string }>({
  dialog,
  titles,
  contentLabel,
  sendLabel,
  sending,
  updating,
  removing,
  onSubmit,
  onDelete,
  onClose,
  renderView,
}: {
  dialog: MessageDialog<T>;
  titles: { send: string; edit: string; view: string };
  contentLabel: string;
  sendLabel: string;
  sending: boolean;
  updating: boolean;
  removing: boolean;
  onSubmit: (content: string) => void;
  onDelete: (item: T) => void;
  onClose: () => void;
  /** The read-only view's body: who sent it, when, and the content. */
  renderView: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const editing = dialog?.mode === 'edit' ? dialog.item : null;
  const viewing = dialog?.mode === 'view' ? dialog.item : null;
  return (
    <>
      <RichTextDialog
        opened={dialog?.mode === 'send'}
        title={titles.send}
        label={contentLabel}
        submitLabel={sendLabel}
        saving={sending}
        onSubmit={onSubmit}
        onClose={onClose}
      />

      <RichTextDialog
        // A new version after a conflict remounts nothing: what was typed stays.
        opened={editing !== null}
        title={titles.edit}
        label={contentLabel}
        initialValue={editing?.content ?? ''}
        submitLabel={t('common.save')}
        saving={updating}
        busy={removing}
        onSubmit={onSubmit}
        onClose={onClose}
        extraActions={
          editing && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              loading={removing}
              disabled={updating}
              onClick={() => onDelete(editing)}
            >
              {t('common.delete')}
            </Button>
          )
        }
      />

      <Modal
        opened={viewing !== null}
        onClose={onClose}
        title={titles.view}
        size="lg"
        centered={!fullScreen}
        fullScreen={fullScreen}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {viewing && (
          <Stack gap="md">
            {renderView(viewing)}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common.close')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
