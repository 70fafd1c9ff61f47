import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDeviceFloppy, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, kitCode, trackingBody } from '@portal/shared';
import type { ProbeSetKit } from '@portal/shared';
import { shipmentStatusText } from '../../entities/kit-orders/probe-set-format';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useZodForm } from '../../lib/use-zod-form';
import { orderRefusalKey } from './decision-errors';
import { useSaveTracking } from './probe-sets-api';

/**
 * One kit of an accepted order (docs/product-rules.md "Records and their states"): its waybill,
 * locked once saved until "Edytuj" unlocks it; its last status, the tracking history and the last
 * failed check.
 */
export function KitCard({
  orderId,
  kit,
  manager,
  onMovedOn,
}: {
  orderId: number;
  kit: ProbeSetKit;
  manager: boolean;
  onMovedOn: () => void;
}) {
  const { t } = useTranslation();
  const saved = kit.shipment?.tracking_code ?? '';
  const [editing, setEditing] = useState(saved === '');
  const form = useZodForm(
    trackingBody,
    { tracking_code: saved },
    {
      toBody: (values) => ({ tracking_code: values.tracking_code, version: kit.version }),
      // A malformed number gets the waybill's own message; an empty one the common "required".
      message: (_field, code) => (code === 'required' ? undefined : t('probeSets.kit.invalidCode')),
    },
  );
  const code = form.values.tracking_code;
  const save = useSaveTracking(orderId);
  const titleId = `kit-${kit.id}-title`;
  const inputId = `kit-${kit.id}-tracking`;
  const locked = !manager || !editing;

  const submit = form.onSubmit((body) => {
    save.mutate(
      { kitId: kit.id, tracking_code: body.tracking_code, version: kit.version },
      {
        onSuccess: () => {
          form.reset({ tracking_code: body.tracking_code });
          setEditing(false);
          notifySuccess(t('common.saved'));
        },
        onError: (failure) => {
          if (isApiError(failure) && failure.httpStatus === 422) {
            const fields = serverFieldErrors(failure);
            form.setFieldError(
              'tracking_code',
              fields.tracking_code ?? t('common.validationError'),
            );
            return;
          }
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
  });

  function unlock() {
    form.reset({ tracking_code: saved });
    setEditing(true);
  }

  function cancel() {
    form.reset({ tracking_code: saved });
    setEditing(false);
  }

  return (
    <Card withBorder padding="sm" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} size="h5" id={titleId}>
            {t('probeSets.kit.title', { number: kit.kit_number })}
          </Title>
          {kit.delivered && (
            <Badge color="green" variant="dot">
              {t('probeSets.kit.delivered')}
            </Badge>
          )}
        </Group>
        <Text size="sm" ff="monospace" data-testid="kit-code">
          {t('probeSets.kit.code', { code: kitCode(orderId, kit.kit_number) })}
        </Text>
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              id={inputId}
              label={t('probeSets.kit.trackingCode')}
              value={locked ? saved : code}
              readOnly={locked}
              variant={locked ? 'filled' : 'default'}
              placeholder={locked ? t('probeSets.kit.noTrackingCode') : undefined}
              onChange={(event) => form.setFieldValue('tracking_code', event.currentTarget.value)}
              error={form.errors.tracking_code}
              maxLength={200}
              autoComplete="off"
              style={{ flex: '1 1 220px' }}
              // The number in monospace, easier to compare with the waybill; the label as usual.
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            {manager &&
              (locked ? (
                <Button
                  variant="light"
                  leftSection={<IconPencil size={16} aria-hidden />}
                  onClick={unlock}
                >
                  {t('common.edit')}
                </Button>
              ) : (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    type="submit"
                    loading={save.isPending}
                    leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                  >
                    {t('common.save')}
                  </Button>
                  {saved !== '' && (
                    <Button variant="default" onClick={cancel}>
                      {t('common.cancel')}
                    </Button>
                  )}
                </Group>
              ))}
          </Group>
        </form>
        <Text size="sm" data-testid="kit-status">
          {t('probeSets.shipment')}: {shipmentStatusText(kit.shipment)}
        </Text>
        {/* Every kit with a waybill says when the post was last asked, or that it was not yet. */}
        {(kit.last_checked_at || saved !== '') && (
          <Text size="xs" c="dimmed" data-testid="kit-checked">
            {kit.last_checked_at
              ? t('probeSets.kit.checkedAt', { at: formatDateTime(kit.last_checked_at) })
              : t('probeSets.kit.neverChecked')}
          </Text>
        )}
        {kit.last_error && (
          <Alert color="yellow" variant="light" p="xs" title={t('probeSets.kit.lastError')}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {kit.last_error}
            </Text>
          </Alert>
        )}
        {kit.events.length > 0 && (
          <div>
            <Text size="sm" fw={600} id={`kit-${kit.id}-history`}>
              {t('probeSets.kit.history')}
            </Text>
            <List
              size="sm"
              spacing={2}
              aria-labelledby={`kit-${kit.id}-history`}
              data-testid="kit-events"
            >
              {kit.events.map((event) => (
                <List.Item key={`${event.occurred_at}-${event.status}`}>
                  <Text span size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(event.occurred_at)}
                  </Text>{' '}
                  {event.status}
                  {event.place ? ` · ${event.place}` : ''}
                </List.Item>
              ))}
            </List>
          </div>
        )}
      </Stack>
    </Card>
  );
}
