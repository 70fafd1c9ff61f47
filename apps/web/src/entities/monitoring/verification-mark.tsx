import { Alert, Button, Group, Text } from '@mantine/core';
import { IconCircleCheck, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import type { MonitoredRecordType, MonitoringFacts } from '@portal/shared';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useVerify } from './monitoring-api';
import { authorName } from './query-format';

/**
 * A record's source data verification (ADR 051), as its detail answers it: the mark ("Zweryfikowano:
 * name, date"), or that a change after verification cleared it, and "Oznacz jako zweryfikowane"
 * while the record is not verified and its detail's abilities say `verify` (ADR 045: the server
 * decides, not the role). Shown to every user; nothing when the record was never verified and
 * the user may not verify.
 */
export function VerificationMark({
  recordType,
  recordId,
  facts,
  canVerify,
}: {
  recordType: MonitoredRecordType;
  recordId: number;
  facts: Partial<Pick<MonitoringFacts, 'verified' | 'changed_after_verification_at'>>;
  /** The record's `verify` ability (`record_abilities` of a visit or sample, a patient's `abilities`). */
  canVerify: boolean;
}) {
  const { t } = useTranslation();
  const verify = useVerify();
  const verified = facts.verified ?? null;
  const changedAt = facts.changed_after_verification_at ?? null;
  const mayVerify = canVerify && !verified;
  if (!verified && !changedAt && !mayVerify) return null;

  return (
    <Group gap="sm" wrap="wrap" data-testid={`verification-${recordType}`}>
      {verified && (
        <Group gap={6} wrap="nowrap">
          <IconCircleCheck size={18} color="var(--mantine-color-teal-8)" aria-hidden />
          <Text size="sm" c="teal.9" fw={500}>
            {t('monitoring.verifiedBy', {
              name: authorName(verified.by),
              at: formatDateTime(verified.at),
            })}
          </Text>
        </Group>
      )}
      {!verified && changedAt && (
        <Alert color="orange" variant="light" p="xs" role="status">
          <Text size="sm">{t('monitoring.changedAfter', { at: formatDateTime(changedAt) })}</Text>
        </Alert>
      )}
      {mayVerify && (
        <Button
          size="xs"
          variant="light"
          color="teal"
          leftSection={<IconRosetteDiscountCheck size={16} aria-hidden />}
          loading={verify.isPending}
          onClick={() =>
            verify.mutate(
              { record_type: recordType, record_id: recordId },
              {
                onSuccess: () => notifySuccess(t('monitoring.markedVerified')),
                onError: (error) => notifyError(t(commonErrorKey(error))),
              },
            )
          }
        >
          {t('monitoring.verify')}
        </Button>
      )}
    </Group>
  );
}
