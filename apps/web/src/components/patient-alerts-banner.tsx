import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import type { SafetyAlert } from '@portal/shared';
import { usePatientOpenAlerts } from '../api/alerts';
import { useCan } from '../lib/permissions';
import { AcknowledgeDialog, AlertSourceLink, useAlertDetailsText } from './safety-alert-parts';

/**
 * The patient's open safety alerts above the card's tabs (docs/product-rules.md "Safety alerts"),
 * each with its values, its source and "Potwierdź"; nothing at all while there are none.
 */
export function PatientAlertsBanner({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const alerts = usePatientOpenAlerts(patientId, can('alerts.read'));
  const detailsText = useAlertDetailsText();
  const [acknowledging, setAcknowledging] = useState<SafetyAlert | null>(null);
  const open = alerts.data?.data ?? [];
  if (open.length === 0) return null;

  return (
    <Alert
      color="red"
      variant="light"
      mb="md"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('alerts.bannerTitle', { count: alerts.data?.total ?? open.length })}
      data-testid="patient-alerts-banner"
    >
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
        {open.map((alert) => (
          <Group
            component="li"
            key={alert.id}
            justify="space-between"
            align="flex-start"
            gap="sm"
            wrap="wrap"
          >
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={700}>
                {t(`alerts.rules.${alert.rule}`)}
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {detailsText(alert.details)}
              </Text>
              <Group gap="xs" wrap="wrap">
                <Text size="xs">{formatDateTime(alert.created_at)}</Text>
                <AlertSourceLink alert={alert} />
              </Group>
            </div>
            {can('alerts.acknowledge') && (
              <Button size="xs" color="red" onClick={() => setAcknowledging(alert)}>
                {t('alerts.acknowledge')}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      <AcknowledgeDialog alert={acknowledging} onClose={() => setAcknowledging(null)} />
    </Alert>
  );
}
