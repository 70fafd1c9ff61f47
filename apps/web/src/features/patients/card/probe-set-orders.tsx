import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatWarsawDate } from '@portal/shared';
import type { ProbeSet } from '@portal/shared';
import {
  PROBE_SET_STATUS_COLOR,
  shipmentStatusText,
} from '../../../entities/kit-orders/probe-set-format';
import classes from './card.module.css';
import { usePatientProbeSets } from '../../../entities/kit-orders/probe-sets-api';
import { TabState } from './tab-state';

/** The patient's kit orders in the samples tab: status, shipment and a link to each order. */
export function ProbeSetOrders({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const orders = usePatientProbeSets(patientId);
  return (
    <Stack gap="sm" component="section" aria-labelledby="kit-orders-title">
      <Title order={2} size="h4" id="kit-orders-title">
        {t('probeSets.card.title')}
      </Title>
      <TabState query={orders} empty={t('probeSets.card.empty')}>
        {(rows) => (
          <Stack component="ul" gap="sm" className={classes.list}>
            {rows.map((order) => (
              <OrderCard key={order.id} order={order} />
            ))}
          </Stack>
        )}
      </TabState>
    </Stack>
  );
}

function OrderCard({ order }: { order: ProbeSet }) {
  const { t } = useTranslation();
  const titleId = `kit-order-${order.id}-title`;
  return (
    <Card component="li" withBorder padding="sm" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs" wrap="wrap">
            <Title order={3} size="h5" id={titleId}>
              {t('probeSets.orderNumber', { id: order.id })}
            </Title>
            <Badge color={PROBE_SET_STATUS_COLOR[order.status]} variant="dot">
              {t(`probeSets.status.${order.status}`)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t('probeSets.card.summary', {
              amount: order.amount,
              date: formatWarsawDate(order.created_at),
            })}
          </Text>
          <Text size="sm">
            {t('probeSets.shipment')}: {shipmentStatusText(order.shipment)}
          </Text>
        </Stack>
        <Button
          component={Link}
          to={`/probe-sets/${order.id}`}
          variant="light"
          leftSection={<IconEye size={16} aria-hidden />}
          aria-label={t('probeSets.detailsOf', { id: order.id })}
        >
          {t('probeSets.details')}
        </Button>
      </Group>
    </Card>
  );
}
