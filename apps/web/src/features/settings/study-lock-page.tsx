import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import { useChangeStudyLock, useStudyLock } from '../../api/study-lock';
import { confirmAction } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { askReason } from '../../components/reason-dialog';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';

/**
 * Settings › "Blokada badania" (/settings/study_lock, ADR 048): whether the study is locked, since
 * when and by whom, and the administrator's lock and unlock, each asking a reason (written into
 * the audit trail) and then a confirmation.
 */
export function StudyLockSettingsPage() {
  const { t } = useTranslation();
  const state = useStudyLock();
  const change = useChangeStudyLock();

  async function ask(action: 'lock' | 'unlock') {
    const reason = await askReason(
      t(action === 'lock' ? 'studyLock.lockReason' : 'studyLock.unlockReason'),
    );
    if (!reason) return;
    confirmAction({
      question: t(action === 'lock' ? 'studyLock.confirmLock' : 'studyLock.confirmUnlock'),
      detail: t(
        action === 'lock' ? 'studyLock.confirmLockDetail' : 'studyLock.confirmUnlockDetail',
      ),
      confirmLabel: t(action === 'lock' ? 'studyLock.lock' : 'studyLock.unlock'),
      cancelLabel: t('common.cancel'),
      danger: action === 'lock',
      onConfirm: () =>
        change.mutate(
          { action, reason },
          {
            onSuccess: () =>
              notifySuccess(t(action === 'lock' ? 'studyLock.locked' : 'studyLock.unlocked')),
            onError: (error) => notifyError(t(commonErrorKey(error))),
          },
        ),
    });
  }

  const lock = state.data;
  return (
    <>
      <PageHeader title={t('studyLock.title')} />
      {state.isPending && <Loader role="status" aria-label={t('app.loading')} />}
      {state.isError && (
        <Alert color="red" variant="light">
          {t(commonErrorKey(state.error))}
        </Alert>
      )}
      {lock && (
        <Paper withBorder p="md" maw={640}>
          <Stack gap="sm">
            <Text size="sm">{t('studyLock.intro')}</Text>
            <Group gap="sm">
              <Text size="sm" fw={500}>
                {t('studyLock.state')}
              </Text>
              <Badge
                color={lock.locked ? 'red' : 'teal'}
                variant="light"
                data-testid="study-lock-state"
              >
                {lock.locked ? t('studyLock.stateLocked') : t('studyLock.stateUnlocked')}
              </Badge>
            </Group>
            {lock.locked && lock.locked_at && (
              <Text size="sm" data-testid="study-lock-since">
                {t('studyLock.since', {
                  at: formatDateTime(lock.locked_at),
                  by: lock.by?.login ?? '–',
                })}
              </Text>
            )}
            <Group>
              {lock.locked ? (
                <Button
                  leftSection={<IconLockOpen size={16} aria-hidden />}
                  loading={change.isPending}
                  onClick={() => void ask('unlock')}
                >
                  {t('studyLock.unlock')}
                </Button>
              ) : (
                <Button
                  color="red"
                  leftSection={<IconLock size={16} aria-hidden />}
                  loading={change.isPending}
                  onClick={() => void ask('lock')}
                >
                  {t('studyLock.lock')}
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      )}
    </>
  );
}
