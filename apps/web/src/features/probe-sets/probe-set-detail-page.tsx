import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconCheck, IconRefresh, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, kitCode } from '@portal/shared';
import type { ProbeSet } from '@portal/shared';
import {
  PROBE_SET_STATUS_COLOR,
  probeSetAddress,
  shipmentStatusText,
} from '../../entities/kit-orders/probe-set-format';
import { ProbeLabelButton } from '../../components/probe-label-slot';
import { confirmAction } from '../../components/confirm';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCan } from '../../lib/permissions';
import { orderRefusalKey } from './decision-errors';
import { KitCard } from './kit-card';
import { OrderSamples } from './order-samples';
import { useDecideProbeSet, useProbeSet, useRefreshTracking } from './probe-sets-api';
import { RejectDialog } from './reject-dialog';

const LIST_PATH = '/probe-sets';

/** Label and value pairs as a description list, two columns from the small breakpoint. */
function Facts({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2 }}
      spacing="xs"
      component="dl"
      m={0}
      data-testid="order-facts"
    >
      {facts.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

function OrderData({ order }: { order: ProbeSet }) {
  const { t } = useTranslation();
  const patientName = `${order.patient.surname} ${order.patient.firstname}`.trim();
  const facts: [string, ReactNode][] = [
    [
      t('probeSets.patient'),
      <Anchor key="patient" component={Link} to={`/patients/card/${order.patient_id}`} size="sm">
        {patientName}
      </Anchor>,
    ],
    [t('probeSets.createdAt'), formatDateTime(order.created_at)],
    [t('probeSets.amount'), order.amount],
    [t('probeSets.labelsAmount'), order.labels_amount],
    [t('probeSets.address'), probeSetAddress(order)],
    [t('probeSets.shipment'), shipmentStatusText(order.shipment)],
  ];
  if (order.decided_at) {
    facts.push([
      order.status === 2 ? t('probeSets.rejectedAt') : t('probeSets.acceptedAt'),
      order.decided_by
        ? `${formatDateTime(order.decided_at)}, ${order.decided_by}`
        : formatDateTime(order.decided_at),
    ]);
  }
  if (order.status === 2) facts.push([t('probeSets.reason'), order.reason ?? '-']);
  return <Facts facts={facts} />;
}

function Decision({ order, onMovedOn }: { order: ProbeSet; onMovedOn: () => void }) {
  const { t } = useTranslation();
  const decide = useDecideProbeSet(order.id);
  const [rejecting, setRejecting] = useState(false);

  // Accepting cannot be undone (the order can no longer be rejected): asked first, as "Odrzuć" is.
  function accept() {
    confirmAction({
      question: t('probeSets.acceptQuestion', { id: order.id }),
      detail: t('probeSets.acceptDetail'),
      confirmLabel: t('probeSets.accept'),
      cancelLabel: t('common.cancel'),
      onConfirm: decideAccept,
    });
  }

  function decideAccept() {
    decide.mutate(
      { status: 1, version: order.version },
      {
        onSuccess: () => notifySuccess(t('probeSets.accepted')),
        onError: (failure) => {
          const refusal = orderRefusalKey(failure);
          if (refusal) {
            notifyError(t(refusal));
            onMovedOn();
            return;
          }
          notifyError(t(commonErrorKey(failure)));
        },
      },
    );
  }

  return (
    <Group gap="sm" wrap="wrap">
      <Button
        color="green"
        leftSection={<IconCheck size={16} aria-hidden />}
        loading={decide.isPending}
        onClick={accept}
      >
        {t('probeSets.accept')}
      </Button>
      <Button
        color="red"
        variant="light"
        leftSection={<IconX size={16} aria-hidden />}
        onClick={() => setRejecting(true)}
        disabled={decide.isPending}
      >
        {t('probeSets.reject')}
      </Button>
      {rejecting && (
        <RejectDialog order={order} onClose={() => setRejecting(false)} onMovedOn={onMovedOn} />
      )}
    </Group>
  );
}

function RefreshButton({ orderId, onDone }: { orderId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshTracking(orderId);
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconRefresh size={14} aria-hidden />}
      loading={refresh.isPending}
      onClick={() =>
        refresh.mutate(undefined, {
          onSuccess: (result) => {
            notifySuccess(
              result.checked === 0
                ? t('probeSets.refreshedNothing')
                : t('probeSets.refreshed', result),
            );
            onDone();
          },
          onError: (failure) => notifyError(t(commonErrorKey(failure))),
        })
      }
    >
      {t('probeSets.refresh')}
    </Button>
  );
}

/**
 * The kits' labels, printed when the kits are packed, before any sample is drawn (ADR 035): the
 * samples' label dialog (through the app's slot), for the whole order, the order's labels
 * amount per kit to start with.
 */
function KitLabelsButton({ order }: { order: ProbeSet }) {
  const { t } = useTranslation();
  const numbers = order.sets.map((kit) => kit.kit_number);
  const first = kitCode(order.id, Math.min(...numbers));
  const last = kitCode(order.id, Math.max(...numbers));
  return (
    <ProbeLabelButton
      probe={{
        of: 'probe-sets',
        id: order.id,
        code: first === last ? first : t('probeSets.kitLabelsCode', { first, last }),
        heading: `ZESTAW ${Math.min(...numbers)}/${order.amount}`,
        labels_amount: order.labels_amount,
      }}
    />
  );
}

function Kits({
  order,
  manager,
  onMovedOn,
}: {
  order: ProbeSet;
  manager: boolean;
  onMovedOn: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="order-kits-title">
      <Group justify="space-between" align="center" mb="sm" gap="sm" wrap="wrap">
        <Title order={2} size="h4" id="order-kits-title">
          {t('probeSets.kits')}
        </Title>
        <Group gap="sm" wrap="wrap">
          {order.sets.length > 0 && <KitLabelsButton order={order} />}
          {manager && <RefreshButton orderId={order.id} onDone={onMovedOn} />}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        {order.sets.map((kit) => (
          <KitCard
            key={kit.id}
            orderId={order.id}
            kit={kit}
            manager={manager}
            onMovedOn={onMovedOn}
          />
        ))}
      </SimpleGrid>
    </Card>
  );
}

/**
 * /probe-sets/{id} (docs/product-rules.md "Records and their states"): the order's data; accepting
 * or rejecting it while new (administrators); once accepted, each kit's waybill and tracking; the
 * samples drawn with its kits and their labels.
 */
export function ProbeSetDetailPage() {
  const { t } = useTranslation();
  const params = useParams();
  const can = useCan();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useProbeSet(valid ? id : null);
  const manager = can('probe_sets.manage');
  const reload = () => void query.refetch();

  if (!valid || (query.isError && isApiError(query.error) && query.error.httpStatus === 404)) {
    return (
      <Alert color="yellow" role="alert" title={t('probeSets.notFoundTitle')}>
        {t('probeSets.notFound')}{' '}
        <Anchor component={Link} to={LIST_PATH} fz="sm">
          {t('probeSets.toList')}
        </Anchor>
      </Alert>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {t(commonErrorKey(query.error))}
      </Alert>
    );
  }
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }

  const order = query.data;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={LIST_PATH} size="sm" w="fit-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('probeSets.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={1} size="h2">
            {t('probeSets.orderNumber', { id: order.id })}
          </Title>
          <Badge
            color={PROBE_SET_STATUS_COLOR[order.status]}
            variant="dot"
            size="lg"
            data-testid="order-status"
          >
            {t(`probeSets.status.${order.status}`)}
          </Badge>
        </Group>
        {manager && order.status === 0 && <Decision order={order} onMovedOn={reload} />}
      </Group>
      <Card withBorder padding="md" component="section" aria-labelledby="order-data-title">
        <Title order={2} size="h4" mb="sm" id="order-data-title">
          {t('probeSets.data')}
        </Title>
        <OrderData order={order} />
      </Card>
      {order.status === 1 && <Kits order={order} manager={manager} onMovedOn={reload} />}
      <OrderSamples order={order} />
    </Stack>
  );
}
