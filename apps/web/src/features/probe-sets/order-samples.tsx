import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDay } from '@portal/shared';
import type { ProbeSet } from '@portal/shared';
import { ProbeLabelButton } from '../../components/probe-label-slot';
import { useProbeSetProbes } from './probe-sets-api';

/**
 * The samples drawn with the order's kits, each with its labels (issue 8's printing; the dialog
 * starts at the order's labels amount).
 */
export function OrderSamples({ order }: { order: ProbeSet }) {
  const { t } = useTranslation();
  const probes = useProbeSetProbes(order.id);
  const rows = probes.data ?? [];

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="order-samples-title">
      <Title order={2} size="h4" mb="sm" id="order-samples-title">
        {t('probeSets.samples')}
      </Title>
      {probes.isError ? (
        <Text size="sm" c="red">
          {t('probeSets.samplesError')}
        </Text>
      ) : probes.isPending ? (
        <Text size="sm" c="dimmed">
          {t('app.loading')}
        </Text>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('probeSets.noSamples')}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {rows.map((probe) => (
            <Card component="li" key={probe.id} withBorder padding="sm">
              <Group justify="space-between" gap="sm" wrap="wrap">
                <Stack gap={2}>
                  <Anchor
                    component={Link}
                    to={`/probes/${probe.id}`}
                    fw={600}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {t('probeSets.sampleTitle', { code: probe.code })}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {formatDay(probe.date_of_sample)} · {t(`probe.status.${probe.status}`)}
                  </Text>
                </Stack>
                <ProbeLabelButton probe={{ ...probe, labels_amount: order.labels_amount }} />
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </Card>
  );
}
