import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import { useStudyLock } from '../api/study-lock';

/**
 * "Badanie jest zablokowane — dane tylko do odczytu" on every signed-in screen while the study is
 * locked (ADR 048): every write would answer 409 `study_locked`. Shown before a forced password
 * change too (the server answers this read then).
 */
export function StudyLockBanner() {
  const { t } = useTranslation();
  const lock = useStudyLock();
  if (!lock.data?.locked) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconLock size={18} aria-hidden />}
      mb="md"
      role="status"
      data-testid="study-lock-banner"
      title={t('studyLock.banner')}
    >
      {lock.data.locked_at &&
        t('studyLock.bannerSince', {
          at: formatDateTime(lock.data.locked_at),
          by: lock.data.by?.login ?? '–',
        })}
    </Alert>
  );
}
