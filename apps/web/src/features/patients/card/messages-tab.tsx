import { Badge, Button, Card, Group, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import type { PatientMessage } from '@portal/shared';
import { confirmAction } from '../../../components/confirm';
import { useIsPhone } from '../../../components/use-is-desktop';
import { isApiError } from '../../../lib/api';
import { commonErrorKey, isStaleVersion } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { htmlToText } from '../../../lib/rich-text';
import { personName } from './card-format';
import classes from './card.module.css';
import { HtmlContent } from './html-content';
import { useDeleteMessage, useMessages, useSendMessage, useUpdateMessage } from './messages-api';
import { RichTextDialog } from '../../../components/rich-text-dialog';
import { TabState } from './tab-state';

type Dialog = { mode: 'send' } | { mode: 'edit' | 'view'; message: PatientMessage } | null;

function ReadStatus({ message }: { message: PatientMessage }) {
  const { t } = useTranslation();
  return message.read_at ? (
    <Badge color="gray" variant="light">
      {t('card.messages.readAt', { date: formatDateTime(message.read_at) })}
    </Badge>
  ) : (
    <Badge color="blue" variant="filled">
      {t('card.messages.unread')}
    </Badge>
  );
}

/**
 * 'Komunikaty': messages from staff to the patient. Unread ones are highlighted and open for
 * editing (save, delete); once read they open read-only (spec §4).
 */
export function MessagesTab({ userId, readOnly }: { userId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const messages = useMessages(userId);
  const send = useSendMessage(userId);
  const update = useUpdateMessage(userId);
  const remove = useDeleteMessage(userId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const user = useSession()?.user;
  // The server's rule (policies/messages.ts): a doctor edits and deletes only the own messages.
  const mayChange = (message: PatientMessage) =>
    user?.role === 'admin' || message.sender_user_id === user?.id;

  const sender = (message: PatientMessage) => personName(message.sender, t('card.administrator'));

  /** 409: the patient read it meanwhile; the list is refreshed by the mutation. */
  function failed(error: unknown) {
    if (isStaleVersion(error) && dialog?.mode === 'edit') {
      // Someone else edited it: the dialog stays open with what was typed, at the new version.
      const id = dialog.message.id;
      messages.refetch().then(
        (answer) => {
          const fresh = answer.data?.find((m) => m.id === id);
          if (fresh) setDialog({ mode: 'edit', message: fresh });
          notifyError(t('common.conflict'));
        },
        (reloadError: unknown) => notifyError(t(commonErrorKey(reloadError))),
      );
    } else if (isApiError(error) && error.httpStatus === 409) {
      notifyError(t('card.messages.alreadyRead'));
      close();
    } else {
      notifyError(t(commonErrorKey(error)));
    }
  }

  function submit(content: string) {
    if (dialog?.mode === 'send') {
      send.mutate(content, {
        onSuccess: () => {
          notifySuccess(t('card.messages.sent'));
          close();
        },
        onError: failed,
      });
    } else if (dialog?.mode === 'edit') {
      update.mutate(
        { id: dialog.message.id, content, version: dialog.message.version },
        {
          onSuccess: () => {
            notifySuccess(t('common.saved'));
            close();
          },
          onError: failed,
        },
      );
    }
  }

  function askDelete(message: PatientMessage) {
    confirmAction({
      question: t('list.confirmDelete'),
      danger: true,
      onConfirm: () =>
        remove.mutate(message.id, {
          onSuccess: () => {
            notifySuccess(t('card.messages.removed'));
            close();
          },
          onError: failed,
        }),
    });
  }

  const editing = dialog?.mode === 'edit' ? dialog.message : null;
  const viewing = dialog?.mode === 'view' ? dialog.message : null;

  return (
    <Stack gap="md">
      {!readOnly && (
        <Group justify="flex-end">
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setDialog({ mode: 'send' })}
          >
            {t('card.messages.add')}
          </Button>
        </Group>
      )}

      <TabState query={messages} empty={t('card.messages.empty')}>
        {(rows) => (
          <Stack component="ul" gap="sm" className={classes.list}>
            {rows.map((message) => {
              const unread = !message.read_at;
              return (
                <Card
                  key={message.id}
                  component="li"
                  withBorder
                  padding={0}
                  className={unread ? classes.unread : undefined}
                  data-unread={unread || undefined}
                >
                  <UnstyledButton
                    className={classes.message}
                    p="md"
                    onClick={() =>
                      setDialog({
                        mode: unread && !readOnly && mayChange(message) ? 'edit' : 'view',
                        message,
                      })
                    }
                  >
                    <Group justify="space-between" align="flex-start" gap="xs" mb={6}>
                      <div>
                        <Text fw={600} size="sm">
                          {sender(message)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatDateTime(message.created_at)}
                        </Text>
                      </div>
                      <ReadStatus message={message} />
                    </Group>
                    <Text size="sm" className={classes.preview}>
                      {htmlToText(message.content)}
                    </Text>
                  </UnstyledButton>
                </Card>
              );
            })}
          </Stack>
        )}
      </TabState>

      <RichTextDialog
        opened={dialog?.mode === 'send'}
        title={t('card.messages.sendTitle')}
        label={t('card.messages.content')}
        submitLabel={t('card.messages.send')}
        saving={send.isPending}
        onSubmit={submit}
        onClose={close}
      />

      <RichTextDialog
        opened={editing !== null}
        title={t('card.messages.editTitle')}
        label={t('card.messages.content')}
        initialValue={editing?.content ?? ''}
        submitLabel={t('common.save')}
        saving={update.isPending}
        busy={remove.isPending}
        onSubmit={submit}
        onClose={close}
        extraActions={
          editing && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              loading={remove.isPending}
              disabled={update.isPending}
              onClick={() => askDelete(editing)}
            >
              {t('common.delete')}
            </Button>
          )
        }
      />

      <Modal
        opened={viewing !== null}
        onClose={close}
        title={t('card.messages.viewTitle')}
        size="lg"
        centered={!fullScreen}
        fullScreen={fullScreen}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {viewing && (
          <Stack gap="md">
            <Group justify="space-between" align="flex-start" gap="xs">
              <div>
                <Text fw={600} size="sm">
                  {sender(viewing)}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(viewing.created_at)}
                </Text>
              </div>
              <ReadStatus message={viewing} />
            </Group>
            <HtmlContent html={viewing.content} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.close')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
