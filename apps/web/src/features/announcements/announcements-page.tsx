import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Stack,
  Text,
  Typography,
  UnstyledButton,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatWarsawDate, formatWarsawTime } from '@portal/shared';
import type { Announcement } from '@portal/shared';
import { confirmAction } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { RichTextPreview } from '../../components/rich-text-preview';
import { MessageDialogs, useReopenStaleEdit } from '../../components/message-dialogs';
import type { MessageDialog } from '../../components/message-dialogs';
import { isApiError } from '../../lib/api';
import { commonErrorKey, isStaleVersion, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { can } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import {
  useAnnouncements,
  useDeleteAnnouncement,
  useSendAnnouncement,
  useUpdateAnnouncement,
} from './announcements-api';
import classes from './announcements.module.css';

/**
 * Rich text sent by staff. dangerouslySetInnerHTML is safe here ONLY because the server sanitises
 * every announcement to a small allow list before storing it (lib/sanitize.ts).
 */
function AnnouncementContent({ html }: { html: string }) {
  return (
    <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}

/** Who sent it, when, and how many patients have read it. */
function Byline({ announcement }: { announcement: Announcement }) {
  const { t } = useTranslation();
  const { sender } = announcement;
  return (
    <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
      <div>
        <Text fw={600} size="sm">
          {sender ? `${sender.firstname} ${sender.surname}` : t('announcements.administrator')}
        </Text>
        <Text size="xs" c="dimmed">
          {formatWarsawDate(announcement.created_at)} {formatWarsawTime(announcement.created_at)}
        </Text>
      </div>
      {/* As written: a badge's default capitals made "PRZECZYTANE PRZEZ: 3" (ADR 039). */}
      <Badge color="gray" variant="light" tt="none">
        {t('announcements.readBy', { n: announcement.readNum })}
      </Badge>
    </Group>
  );
}

/**
 * 'Komunikaty' (docs/product-rules.md "Records and their states"): announcements to every patient, newest first.
 * A card opens the edit dialog (with delete) when the server says the user may change it
 * (`abilities`, ADR 045: administrators any, a doctor the own); others open read-only.
 */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const list = useAnnouncements();
  const send = useSendAnnouncement();
  const update = useUpdateAnnouncement();
  const remove = useDeleteAnnouncement();
  const [dialog, setDialog] = useState<MessageDialog<Announcement>>(null);
  const close = () => setDialog(null);
  const reopenStaleEdit = useReopenStaleEdit();
  const user = useSession()?.user;
  const mayWrite = can(user, 'announcements.write');
  const mayChange = (announcement: Announcement) => announcement.abilities.edit;

  function failed(error: unknown) {
    if (isStaleVersion(error) && dialog?.mode === 'edit') {
      reopenStaleEdit(dialog.item.id, () => list.refetch().then((a) => a.data?.data), setDialog);
    } else if (isApiError(error) && error.httpStatus === 404) {
      notifyError(t('announcements.gone'));
      close();
    } else {
      // A 422 names the content's fault in the user's language (e.g. too long).
      notifyError(serverFieldErrors(error).content ?? t(commonErrorKey(error)));
    }
  }

  function submit(content: string) {
    if (dialog?.mode === 'send') {
      send.mutate(content, {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          close();
        },
        onError: failed,
      });
    } else if (dialog?.mode === 'edit') {
      const { id, version } = dialog.item;
      update.mutate(
        { id, content, version },
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

  function askDelete(announcement: Announcement) {
    confirmAction({
      question: t('list.confirmDelete'),
      danger: true,
      onConfirm: () =>
        remove.mutate(announcement.id, {
          onSuccess: () => {
            notifySuccess(t('announcements.removed'));
            close();
          },
          onError: failed,
        }),
    });
  }

  const count = list.data?.total_count;

  return (
    <>
      <PageHeader
        title={
          count === undefined
            ? t('announcements.title')
            : t('announcements.titleCount', { n: count })
        }
        actions={
          mayWrite && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setDialog({ mode: 'send' })}
            >
              {t('announcements.add')}
            </Button>
          )
        }
      />

      {list.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label={t('app.loading')} />
        </Center>
      )}
      {list.isError && (
        <Alert color="red" role="alert">
          {t('list.loadError')}
        </Alert>
      )}
      {list.data?.data.length === 0 && (
        <Text c="dimmed" ta="center" py="xl">
          {t('announcements.empty')}
        </Text>
      )}
      {list.data && list.data.data.length > 0 && (
        <Stack component="ul" gap="sm" className={classes.list} maw={900}>
          {list.data.data.map((announcement) => (
            <Card key={announcement.id} component="li" withBorder padding={0}>
              <UnstyledButton
                className={classes.card}
                p="md"
                onClick={() =>
                  setDialog({ mode: mayChange(announcement) ? 'edit' : 'view', item: announcement })
                }
              >
                <Byline announcement={announcement} />
                <RichTextPreview html={announcement.content} className={classes.preview} />
              </UnstyledButton>
            </Card>
          ))}
        </Stack>
      )}

      <MessageDialogs
        dialog={dialog}
        titles={{
          send: t('announcements.sendTitle'),
          edit: t('announcements.editTitle'),
          view: t('announcements.viewTitle'),
        }}
        contentLabel={t('announcements.content')}
        sendLabel={t('announcements.send')}
        sending={send.isPending}
        updating={update.isPending}
        removing={remove.isPending}
        onSubmit={submit}
        onDelete={askDelete}
        onClose={close}
        renderView={(viewing) => (
          <>
            <Byline announcement={viewing} />
            <AnnouncementContent html={viewing.content} />
          </>
        )}
      />
    </>
  );
}
