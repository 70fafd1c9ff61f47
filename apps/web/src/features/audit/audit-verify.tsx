import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { AuditVerifyAnswer } from '@portal/shared';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client';

/**
 * GET /api/audit_trial/verify: recomputes the trail's hash chain and names the first entry that
 * does not hold (ADR 049). The button shows it is working until the answer comes.
 */
export function AuditVerify() {
  const { t } = useTranslation();
  const verify = useMutation({
    mutationFn: () => api.get<AuditVerifyAnswer>('/audit_trial/verify'),
  });
  const answer = verify.data;
  return (
    <Group gap="sm" align="flex-start">
      <Button variant="default" loading={verify.isPending} onClick={() => verify.mutate()}>
        {t('audit.verify')}
      </Button>
      {verify.isPending && (
        <Text size="sm" role="status">
          {t('audit.verifyRunning')}
        </Text>
      )}
      {answer &&
        (answer.ok ? (
          <Alert color="green" role="status" title={t('audit.verifyOk')} py={6}>
            {t('audit.verifyChecked', { count: answer.checked })}
          </Alert>
        ) : (
          <Alert color="red" role="alert" title={t('audit.verifyBroken')} py={6}>
            {t('audit.verifyBrokenAt', { id: answer.first_broken_id ?? '-' })}
          </Alert>
        ))}
      {verify.isError && (
        <Alert color="red" role="alert" py={6}>
          {t('audit.verifyFailed')}
        </Alert>
      )}
    </Group>
  );
}
