import { Badge, Button, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import type { PatientMessage } from '@portal/shared';
import { confirmAction } from '../../../components/confirm';
import { isApiError } from '../../../lib/api';
import { commonErrorKey, isStaleVersion } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { RichTextPreview } from '../../../components/rich-text-preview';
import { personName } from '../../../entities/patients/patient-format';
import classes from './card.module.css';
import { HtmlContent } from './html-content';
import { useDeleteMessage, useMessages, useSendMessage, useUpdateMessage } from './messages-api';
import { MessageDialogs, useReopenStaleEdit } from '../../../components/message-dialogs';
import type { MessageDialog } from '../../../components/message-dialogs';
import { TabState } from './tab-state';

function ReadStatus({ message }: { message: PatientMessage }) {
  const { t } = useTranslation();
  return message.read_at ? (
    <Badge color="gray" variant="light" tt="none">
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
 * editing (save, delete); once read they open read-only (docs/product-rules.md "Records and their
 * states").
 */
export function MessagesTab({ userId, readOnly }: { userId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const messages = useMessages(userId);
  const send = useSendMessage(userId);
  const update = useUpdateMessage(userId);
  const remove = useDeleteMessage(userId);
  const [dialog, setDialog] = useState<MessageDialog<PatientMessage>>(null);
  const close = () => setDialog(null);
  const reopenStaleEdit = useReopenStaleEdit();

  const sender = (message: PatientMessage) => personName(message.sender, t('card.administrator'));

  /** 409: the patient read it meanwhile; the list is refreshed by the mutation. */
  function failed(error: unknown) {
    if (isStaleVersion(error) && dialog?.mode === 'edit') {
      reopenStaleEdit(dialog.item.id, () => messages.refetch().then((a) => a.data), setDialog);
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
        { id: dialog.item.id, content, version: dialog.item.version },
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
                        // The server says what the user may do with it (ADR 045): the own (or
                        // any, for an administrator) unread message of a patient not deleted.
                        mode: message.abilities.edit ? 'edit' : 'view',
                        item: message,
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
                    <RichTextPreview html={message.content} className={classes.preview} />
                  </UnstyledButton>
                </Card>
              );
            })}
          </Stack>
        )}
      </TabState>

      <MessageDialogs
        dialog={dialog}
        titles={{
          send: t('card.messages.sendTitle'),
          edit: t('card.messages.editTitle'),
          view: t('card.messages.viewTitle'),
        }}
        contentLabel={t('card.messages.content')}
        sendLabel={t('card.messages.send')}
        sending={send.isPending}
        updating={update.isPending}
        removing={remove.isPending}
        onSubmit={submit}
        onDelete={askDelete}
        onClose={close}
        renderView={(viewing) => (
          <>
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
          </>
        )}
      />
    </Stack>
  );
}
