import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconEye, IconPackage, IconPlus, IconTruckDelivery } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDay, formatWarsawDate } from '@portal/shared';
import type { PatientDetail, Probe } from '@portal/shared';
import { useCan } from '../../../lib/permissions';
import { ProbeLabelButton } from '../../../components/probe-label-slot';
import { ProbeSetOrders } from './probe-set-orders';
import { ProbeSetOrderDialog } from '../../../entities/kit-orders/probe-set-order-dialog';
import classes from './card.module.css';
import { ProbeCreateDialog } from '../../../entities/samples/probe-create-dialog';
import { useOrderLink, usePatientProbes } from '../../../entities/samples/samples-api';
import { TabState } from './tab-state';

/**
 * 'Próbki' (the patient card's samples tab): the patient's samples as cards with their status line,
 * a link to each sample's page and its labels; adding a sample and ordering the courier.
 */
export function SamplesTab({ patient, readOnly }: { patient: PatientDetail; readOnly: boolean }) {
  const { t } = useTranslation();
  const can = useCan();
  const mayCreate = !readOnly && can('probes.write');
  const probes = usePatientProbes(patient.id);
  const orderLink = useOrderLink();
  const [adding, setAdding] = useState(false);
  const mayOrderKits = !readOnly && can('probe_sets.order');
  const [ordering, setOrdering] = useState(false);
  const orderUrl = orderLink.data ?? '';

  return (
    <Stack gap="md">
      <Group justify="flex-end" wrap="wrap" gap="sm">
        {orderUrl !== '' && (
          <Button
            component="a"
            href={orderUrl}
            target="_blank"
            rel="noopener"
            variant="default"
            leftSection={<IconTruckDelivery size={16} aria-hidden />}
          >
            {t('samples.order')}
          </Button>
        )}
        {mayOrderKits && (
          <Button
            variant="light"
            leftSection={<IconPackage size={16} aria-hidden />}
            onClick={() => setOrdering(true)}
          >
            {t('probeSets.order.button')}
          </Button>
        )}
        {mayCreate && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {t('samples.add')}
          </Button>
        )}
      </Group>
      <TabState query={probes} empty={t('samples.empty')}>
        {(rows) => (
          <Stack component="ul" gap="sm" className={classes.list}>
            {rows.map((probe) => (
              <SampleCard key={probe.id} probe={probe} />
            ))}
          </Stack>
        )}
      </TabState>
      {can('probe_sets.read') && <ProbeSetOrders patientId={patient.id} />}
      <ProbeCreateDialog opened={adding} patient={patient} onClose={() => setAdding(false)} />
      <ProbeSetOrderDialog opened={ordering} patient={patient} onClose={() => setOrdering(false)} />
    </Stack>
  );
}

function statusLine(probe: Probe, t: TFunction): string {
  switch (probe.status) {
    case 'collected':
      return t('samples.status.collected', { date: formatWarsawDate(probe.created_at) });
    case 'sent':
      return t('samples.status.sent');
    case 'received':
      return t('samples.status.received');
  }
}

function SampleCard({ probe }: { probe: Probe }) {
  const { t } = useTranslation();
  const titleId = `probe-${probe.id}-title`;
  const name = t('samples.cardTitle', { code: probe.code });
  return (
    <Card component="li" withBorder padding="md" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4}>
          <Group gap="xs" wrap="wrap">
            <Title order={3} size="h5" id={titleId}>
              {name}
            </Title>
            {probe.is_cito && (
              <Badge color="red" variant="light">
                {t('samples.cito')}
              </Badge>
            )}
          </Group>
          <Text size="sm" data-testid="probe-status-line">
            {statusLine(probe, t)}
          </Text>
          <Text size="sm" c="dimmed">
            {t(`probe.test.${probe.type_of_test}`)} ·{' '}
            {t(`probe.material.${probe.type_of_material}`)} ·{' '}
            {t(`probe.place.${probe.collect_place}`)} · {t('samples.dateOfSample')}:{' '}
            {formatDay(probe.date_of_sample)}
          </Text>
        </Stack>
        <Group gap="xs" wrap="wrap">
          <ProbeLabelButton probe={probe} />
          <Button
            component={Link}
            to={`/probes/${probe.id}`}
            variant="light"
            leftSection={<IconEye size={16} aria-hidden />}
            aria-label={t('samples.detailsOf', { code: probe.code })}
          >
            {t('probe.details')}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
