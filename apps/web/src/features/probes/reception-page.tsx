import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { formatDateTime, formatWarsawTime } from '@portal/shared';
import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { CameraScanner, cameraScanSupported } from './camera-scanner';
import { LabelPrintButton } from './label-print-button';
import { useReceiveScan } from './reception-api';
import type { ScanOutcome } from './reception-api';
import { warningBeep } from './warning-beep';

interface Scan {
  id: number;
  at: Date;
  code: string;
  outcome: ScanOutcome;
}

/**
 * "Przyjęcie próbek": the laboratory (or the clinic) scans each arriving label with a barcode
 * scanner (keys ending in Enter) or the camera; each scan records the arrival once. Problems are
 * loud: a red alert read out at once and a short beep. The session's scans stay listed.
 */
export function ReceptionPage() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [scans, setScans] = useState<Scan[]>([]);
  const [cameraOpen, setCameraOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  const receive = useReceiveScan();

  async function submitCode(raw: string) {
    const value = raw.trim();
    if (!value) return;
    setCode('');
    const outcome = await receive.mutateAsync(value);
    if (outcome.kind !== 'received') warningBeep();
    setScans((list) => [{ id: nextId.current++, at: new Date(), code: value, outcome }, ...list]);
    input.current?.focus();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submitCode(code);
  }

  const last = scans[0];
  return (
    <Stack gap="md">
      <PageHeader title={t('reception.title')} />
      <Text size="sm" c="dimmed">
        {t('reception.intro')}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            ref={input}
            label={t('reception.code')}
            description={t('reception.codeHint')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            style={{ flex: '1 1 240px' }}
            ff="monospace"
          />
          <Button type="submit" loading={receive.isPending}>
            {t('reception.accept')}
          </Button>
          {cameraScanSupported() && (
            <Button
              variant="light"
              leftSection={<IconCamera size={16} />}
              onClick={() => setCameraOpen(true)}
            >
              {t('reception.camera')}
            </Button>
          )}
        </Group>
      </form>

      {last && <LastScan scan={last} />}

      <Title order={2} size="h4">
        {t('reception.session', { count: scans.length })}
      </Title>
      {scans.length === 0 ? (
        <Text c="dimmed">{t('reception.empty')}</Text>
      ) : (
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-live="off">
          {scans.map((scan) => (
            <ScanRow key={scan.id} scan={scan} />
          ))}
        </Stack>
      )}

      {cameraOpen && (
        <CameraScanner
          onClose={() => {
            setCameraOpen(false);
            input.current?.focus();
          }}
          onCode={(value) => {
            setCameraOpen(false);
            void submitCode(value);
          }}
        />
      )}
    </Stack>
  );
}

function patientName(probe: { patient: { firstname: string; surname: string } }) {
  return `${probe.patient.firstname} ${probe.patient.surname}`;
}

/** The banner for the latest scan: calm for a recorded arrival, loud for everything else. */
function LastScan({ scan }: { scan: Scan }) {
  const { t } = useTranslation();
  const { outcome } = scan;
  if (outcome.kind === 'received') {
    return (
      <Alert
        color="green"
        role="status"
        title={t('reception.received', { code: scan.code })}
        // Green on light green is below 4.5:1: the title in the text colour, the icon stays green.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        <Text size="sm">
          {t('reception.patient')}: <b>{patientName(outcome.probe)}</b> · {t('probe.number')}:{' '}
          <b>{outcome.probe.code}</b>
        </Text>
      </Alert>
    );
  }
  // key: a repeated warning is a new alert, so that screen readers announce it again.
  return (
    <Alert
      key={scan.id}
      color="red"
      variant="filled"
      role="alert"
      title={
        outcome.kind === 'already'
          ? t('reception.already', { code: scan.code })
          : outcome.kind === 'unknown'
            ? t('reception.unknown', { code: scan.code })
            : t(outcome.messageKey)
      }
      styles={{ title: { fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {outcome.kind === 'already' && (
        <Text size="sm">
          {t('reception.alreadyDetail', {
            at: formatDateTime(outcome.probe.arrived_at),
            by: outcome.probe.arrived_by.name,
          })}{' '}
          {t('reception.patient')}: {patientName(outcome.probe)}
        </Text>
      )}
      {outcome.kind === 'unknown' && <Text size="sm">{t('reception.unknownDetail')}</Text>}
    </Alert>
  );
}

function ScanRow({ scan }: { scan: Scan }) {
  const { t } = useTranslation();
  const { outcome } = scan;
  const probe = outcome.kind === 'received' || outcome.kind === 'already' ? outcome.probe : null;
  const badge = {
    received: { color: 'green', label: t('reception.result.received') },
    already: { color: 'red', label: t('reception.result.already') },
    unknown: { color: 'red', label: t('reception.result.unknown') },
    error: { color: 'red', label: t('reception.result.error') },
  }[outcome.kind];
  return (
    <Paper component="li" withBorder p="xs" radius="sm" data-testid="reception-scan">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm" wrap="wrap">
          <Text size="sm" c="dimmed">
            {formatWarsawTime(scan.at)}
          </Text>
          <Text ff="monospace" fw={600} style={{ wordBreak: 'break-all' }}>
            {scan.code}
          </Text>
          {probe && <Text size="sm">{patientName(probe)}</Text>}
        </Group>
        <Group gap="xs">
          {/* Dark text: green on light green is below 4.5:1 at the badge's size. */}
          <Badge
            color={badge.color}
            variant="light"
            c={badge.color === 'green' ? 'dark.7' : undefined}
          >
            {badge.label}
          </Badge>
          {probe && <LabelPrintButton probe={probe} />}
          {probe && (
            <Anchor component={Link} to={`/probes/${probe.id}`} size="sm">
              {t('probe.details')}
              <VisuallyHidden> {probe.code}</VisuallyHidden>
            </Anchor>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
