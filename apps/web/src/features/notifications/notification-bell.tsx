import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Divider,
  Group,
  Popover,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDateTime, formatDay } from '@portal/shared';
import type { UserNotification } from '@portal/shared';
import { useBell, useMarkRead } from './notifications-api';

/** The sentence of a notification in the reader's language (the server sends ids only). */
export function useNotificationText() {
  const { t } = useTranslation();
  return (n: UserNotification) =>
    t(`notifications.type.${n.type}`, {
      date: typeof n.params.date === 'string' ? formatDay(n.params.date) : '',
      time: n.params.time ?? '',
    });
}

/**
 * The header's bell (ADR 062): the unread count on it, the ten newest notifications in a
 * popover; choosing one marks it read and opens what it is about.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const bell = useBell();
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const textOf = useNotificationText();
  const unread = bell.data?.unread ?? 0;
  const label =
    unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell');

  const open = (n: UserNotification) => {
    setOpened(false);
    if (!n.read_at) markRead.mutate(n.id);
    void navigate(n.link);
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={320}
      shadow="md"
      trapFocus
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={label}
          aria-expanded={opened}
          onClick={() => setOpened((o) => !o)}
          pos="relative"
        >
          <IconBell aria-hidden size={22} />
          {unread > 0 && (
            <Badge
              size="xs"
              color="red"
              variant="filled"
              pos="absolute"
              top={-2}
              right={-4}
              aria-hidden
              data-testid="bell-count"
            >
              {unread > 99 ? '99+' : unread}
            </Badge>
          )}
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p="xs" role="dialog" aria-label={t('notifications.bell')}>
        {bell.data?.data.length ? (
          <Stack gap={4} role="list" aria-label={t('notifications.bell')}>
            {bell.data.data.map((n) => (
              <Box role="listitem" key={n.id}>
                <UnstyledButton
                  onClick={() => open(n)}
                  p={6}
                  w="100%"
                  style={{ borderRadius: 4 }}
                  bg={n.read_at ? undefined : 'var(--mantine-color-blue-light)'}
                >
                  <Text size="sm" fw={n.read_at ? 400 : 700}>
                    {textOf(n)}
                    {!n.read_at && (
                      <VisuallyHidden>{` (${t('notifications.unread')})`}</VisuallyHidden>
                    )}
                  </Text>
                  <Text size="xs" c="dark.6">
                    {formatDateTime(n.created_at)}
                  </Text>
                </UnstyledButton>
              </Box>
            ))}
          </Stack>
        ) : (
          <Text size="sm" p={6}>
            {t('notifications.empty')}
          </Text>
        )}
        <Divider my="xs" />
        <Group justify="flex-end">
          <Anchor
            component={Link}
            to="/settings/notifications"
            size="sm"
            onClick={() => setOpened(false)}
          >
            {t('notifications.preferencesLink')}
          </Anchor>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
