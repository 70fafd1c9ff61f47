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
  Table,
  Text,
  Title,
  Typography,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconPencil, IconTestPipe } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDateTime, formatDay } from '@portal/shared';
import type { LabRefusal, Probe, ProbeDetail as ProbeWithRefusals } from '@portal/shared';
import { useMedicines } from '../../api/lookups';
import { RecordQueries } from '../../entities/monitoring/record-queries';
import { VerificationMark } from '../../entities/monitoring/verification-mark';
import { RichTextDialog } from '../../components/rich-text-dialog';
import { isApiError } from '../../lib/api';
import { commonErrorKey, isStaleVersion } from '../../lib/api-errors';
import { useLabErrorText } from '../../lib/lab-errors';
import { formatMeasured } from '../../lib/measured-value';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCan } from '../../lib/permissions';
import {
  RecordLockBadge,
  RecordLockedNotice,
  SignaturesSection,
} from '../../entities/signatures/signature-panel';
import { plainTranslate, probeSignedRows } from '../../entities/signatures/signature-format';
import { LabelPrintButton } from './label-print-button';
import { useProbe, useSaveAdverseEvents } from './probe-api';
import { RESULT_UNITS, medicineKey, rangeText, resultText } from './probe-format';
import { ResultsDialog } from './results-dialog';

const PROBES_PATH = '/probes';

/** React Router numbers its history entries: index 0 is the first page of this visit. */
const hasHistory = () => ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

function Section({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Group justify="space-between" align="center" mb="sm" gap="sm" wrap="wrap">
        <Title order={2} size="h4">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Card>
  );
}

/** Label and value pairs as a description list, two columns from the small breakpoint. */
function Facts({ facts, testId }: { facts: [string, ReactNode][]; testId: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0} data-testid={testId}>
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

function useMedicineNames() {
  const medicines = useMedicines().data ?? [];
  const names = new Map(medicines.map((medicine) => [medicine.id, medicine.name]));
  return (id: number) => names.get(id) ?? `#${id}`;
}

function BasicData({ probe }: { probe: Probe }) {
  const { t } = useTranslation();
  const medicineName = useMedicineNames();
  const patientName = `${probe.patient_surname} ${probe.patient_firstname}`;
  const facts: [string, ReactNode][] = [
    [t('probe.number'), probe.code],
    [t('probeDetail.status'), t(`probe.status.${probe.status}`)],
    [t('probeDetail.createdAt'), formatDateTime(probe.created_at)],
    [t('probeDetail.dateOfSample'), formatDay(probe.date_of_sample)],
    [t('probeDetail.typeOfTest'), t(`probe.test.${probe.type_of_test}`)],
    [t('probeDetail.typeOfMaterial'), t(`probe.material.${probe.type_of_material}`)],
    [t('probeDetail.collectPlace'), t(`probe.place.${probe.collect_place}`)],
    [t('probeDetail.cito'), probe.is_cito ? t('probeDetail.yes') : t('probeDetail.no')],
    [t('probeDetail.carrier'), probe.carrier.name],
    [t('probeDetail.medicines'), probe.medicine_ids.map(medicineName).join(', ') || '-'],
    [
      t('probeDetail.patient'),
      <Anchor
        key="patient"
        component={Link}
        to={`/patients/card/${probe.patient_id}`}
        size="sm"
        aria-label={t('probeDetail.openCard', { name: patientName })}
      >
        {patientName}
      </Anchor>,
    ],
    [
      t('probeDetail.visit'),
      probe.visit_id === null ? (
        '-'
      ) : (
        <Anchor
          key="visit"
          component={Link}
          to={`/patients/${probe.patient_id}/visits/${probe.visit_id}`}
          size="sm"
        >
          {t('probeDetail.openVisit')}
        </Anchor>
      ),
    ],
  ];
  return <Facts facts={facts} testId="probe-basic" />;
}

function AdditionalData({ probe }: { probe: Probe }) {
  const { t } = useTranslation();
  const lab = probe.laboratory;
  const address = [
    `${probe.patient_address_street} ${probe.patient_address_building}`.trim(),
    `${probe.patient_address_postcode} ${probe.patient_address_city}`.trim(),
  ].join(', ');
  const facts: [string, ReactNode][] = [
    [
      t('probeDetail.orderedBy'),
      `${probe.ordered_by_firstname} ${probe.ordered_by_surname}`.trim(),
    ],
    [t('probeDetail.orderedAt'), formatDay(probe.ordered_at)],
    [t('probeDetail.orderedPatient'), `${probe.patient_firstname} ${probe.patient_surname}`],
    [t('probeDetail.orderedAddress'), address],
    [
      t('probeDetail.laboratory'),
      lab ? `${lab.address}, ${lab.postcode} ${lab.city}` : t('probeDetail.noLaboratory'),
    ],
    [
      t('probeDetail.arrived'),
      probe.arrived_at
        ? `${formatDateTime(probe.arrived_at)}${probe.arrived_by ? `, ${probe.arrived_by.name}` : ''}`
        : t('probeDetail.notArrived'),
    ],
  ];
  return <Facts facts={facts} testId="probe-additional" />;
}

/** Beside an edit action of a locked sample (ADR 048): why it is disabled. */
function LockedHint() {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed">
      {t('signatures.lockedAction')}
    </Text>
  );
}

function AdverseEvents({
  probe,
  writer,
  locked,
}: {
  probe: Probe;
  writer: boolean;
  locked: boolean;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const save = useSaveAdverseEvents(probe.id);

  function submit(html: string) {
    save.mutate(
      { adverse_events: html === '' ? null : html, version: probe.version },
      {
        onSuccess: () => {
          setOpened(false);
          notifySuccess(t('probeDetail.adverseSaved'));
        },
        onError: (error) =>
          notifyError(isStaleVersion(error) ? t('probeDetail.conflict') : t(commonErrorKey(error))),
      },
    );
  }

  return (
    <Section
      title={t('probeDetail.adverseEvents')}
      actions={
        writer && (
          <Group gap="xs">
            {locked && <LockedHint />}
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPencil size={14} aria-hidden />}
              onClick={() => setOpened(true)}
              disabled={locked}
            >
              {t('probeDetail.editAdverse')}
            </Button>
          </Group>
        )
      }
    >
      {probe.adverse_events ? (
        // Safe: the server sanitises the adverse events to a small allow list before storing.
        <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
          <div
            data-testid="probe-adverse-events"
            dangerouslySetInnerHTML={{ __html: probe.adverse_events }}
          />
        </Typography>
      ) : (
        <Text size="sm" c="dimmed" data-testid="probe-adverse-events">
          {t('probeDetail.noAdverseEvents')}
        </Text>
      )}
      <RichTextDialog
        opened={opened}
        title={t('probeDetail.adverseEvents')}
        label={t('probeDetail.adverseEventsField')}
        initialValue={probe.adverse_events ?? ''}
        submitLabel={t('probeDetail.save')}
        saving={save.isPending}
        allowBlank
        onSubmit={submit}
        onClose={() => setOpened(false)}
      />
    </Section>
  );
}

interface ResultRow {
  key: string;
  name: string;
  value: number | null;
  unit: string;
}

function ResultsTable({ probe, rows, label }: { probe: Probe; rows: ResultRow[]; label: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('probeDetail.analyte')}</Table.Th>
            <Table.Th>{t('probeDetail.result')}</Table.Th>
            <Table.Th>{t('probeDetail.reference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const range = probe.concentration_range[row.key];
            const outOfNorm = probe.results_out_of_norm.includes(row.key);
            return (
              <Table.Tr key={row.key} data-testid={`result-${row.key}`}>
                <Table.Th scope="row" fw={500}>
                  {row.name}
                </Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="wrap">
                    <Text
                      size="sm"
                      fw={outOfNorm ? 700 : undefined}
                      c={outOfNorm ? 'red.9' : undefined}
                    >
                      {row.value === null
                        ? '–'
                        : `${resultText(row.value, probe.result_comparators[row.key], i18n.language)} ${range?.unit ?? row.unit}`}
                    </Text>
                    {outOfNorm && (
                      <Badge color="red" variant="filled" size="sm">
                        {t('probe.outOfNorm')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{rangeText(range, i18n.language) ?? '–'}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Results({ probe, enterer, locked }: { probe: Probe; enterer: boolean; locked: boolean }) {
  const { t, i18n } = useTranslation();
  const medicineName = useMedicineNames();
  const [opened, setOpened] = useState(false);
  const b = probe.biochemistry_results;
  const c = probe.concentrations_results;
  const biochemistry: ResultRow[] = (['alt', 'ast', 'creatine', 'bilirubine'] as const).map(
    (key) => ({
      key,
      name: t(`probeDetail.analytes.${key}`),
      value: b[key],
      unit: RESULT_UNITS[key],
    }),
  );
  const concentrations: ResultRow[] = probe.medicine_ids.map((medicineId) => ({
    key: medicineKey(medicineId),
    name: medicineName(medicineId),
    value: c.concentrations.find((row) => row.medicine_id === medicineId)?.value ?? null,
    unit: RESULT_UNITS.concentration,
  }));
  const sexNote = t(`probeDetail.rangesFor.${probe.patient_sex}`);

  return (
    <>
      <Section
        title={t('probeDetail.biochemistry')}
        actions={
          enterer && (
            <Group gap="xs">
              {locked && <LockedHint />}
              <Button
                size="xs"
                leftSection={<IconTestPipe size={14} aria-hidden />}
                onClick={() => setOpened(true)}
                disabled={locked}
              >
                {t('probeDetail.enterResults')}
              </Button>
            </Group>
          )
        }
      >
        <Stack gap="xs">
          <ResultsTable probe={probe} rows={biochemistry} label={t('probeDetail.biochemistry')} />
          <Text size="xs" c="dimmed">
            {sexNote}
            {probe.results_at &&
              ` · ${t('probeDetail.resultsAt', { at: formatDateTime(probe.results_at) })}`}
          </Text>
        </Stack>
      </Section>
      <Section title={t('probeDetail.concentrations')}>
        <Stack gap="xs">
          <ResultsTable
            probe={probe}
            rows={concentrations}
            label={t('probeDetail.concentrations')}
          />
          <Facts
            testId="probe-concentration-facts"
            facts={[
              [
                t('probeDetail.hours'),
                c.hours === null
                  ? '–'
                  : t('probeDetail.hoursValue', { hours: formatMeasured(c.hours, i18n.language) }),
              ],
              [
                t('probeDetail.dateOfAnalysis'),
                c.date_of_analysis ? formatDay(c.date_of_analysis) : '–',
              ],
            ]}
          />
        </Stack>
      </Section>
      <LabComments probe={probe} names={[...biochemistry, ...concentrations]} />
      {enterer && (
        <ResultsDialog
          probe={probe}
          opened={opened}
          medicineName={medicineName}
          onClose={() => setOpened(false)}
        />
      )}
    </>
  );
}

/**
 * The laboratory's comments (HL7 NTE and text results, ADR 033): on the sample, then per result
 * under the result's name. Plain text (React escapes it); line breaks kept. Absent: no section.
 */
function LabComments({ probe, names }: { probe: Probe; names: ResultRow[] }) {
  const { t } = useTranslation();
  const { sample, results } = probe.lab_comments;
  const perResult = Object.entries(results).map(([key, text]) => ({
    key,
    name: names.find((row) => row.key === key)?.name ?? key,
    text,
  }));
  if (!sample && perResult.length === 0) return null;
  return (
    <Section title={t('probeDetail.labComments')}>
      <Stack gap="xs" data-testid="probe-lab-comments">
        {sample && (
          <div>
            <Text size="sm" fw={500}>
              {t('probeDetail.labCommentSample')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {sample}
            </Text>
          </div>
        )}
        {perResult.map((row) => (
          <div key={row.key} data-testid={`lab-comment-${row.key}`}>
            <Text size="sm" fw={500}>
              {row.name}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {row.text}
            </Text>
          </div>
        ))}
      </Stack>
    </Section>
  );
}

/**
 * The laboratory's results that did not reach this sample (ADR 032): a refused message naming it
 * (since its results were last stored), or a result held back by the patient check. Said in the
 * user's language with the sample and the analyte; absent when there is none.
 */
function LabRefusals({ refusals }: { refusals: readonly LabRefusal[] }) {
  const { t } = useTranslation();
  const can = useCan();
  const labErrorText = useLabErrorText();
  if (refusals.length === 0) return null;
  const isHeld = (refusal: LabRefusal) =>
    refusal.code === 'sex_mismatch' || refusal.code === 'birth_date_mismatch';
  const held = refusals.some(isHeld);
  const refused = refusals.some((refusal) => !isHeld(refusal));
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={t('labErrors.probeTitle')}
      data-testid="probe-lab-refusals"
    >
      <Stack gap={6}>
        <Text size="sm">{t('labErrors.probeIntro')}</Text>
        <Stack component="ul" gap={4} m={0} pl="md">
          {refusals.map((refusal, index) => (
            <Text component="li" size="sm" key={`${refusal.at}-${index}`}>
              <Text span size="sm" fw={600}>
                {formatDateTime(refusal.at)}
              </Text>
              {' — '}
              {labErrorText(refusal)}
            </Text>
          ))}
        </Stack>
        {refused && <Text size="sm">{t('labErrors.refusedHint')}</Text>}
        {held && (
          <Text size="sm">
            {t('labErrors.heldHint')}{' '}
            {can('lab.unmatched') && (
              <Anchor component={Link} to="/lab/unmatched" size="sm">
                {t('labErrors.openUnmatched')}
              </Anchor>
            )}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

function ProbeDetail({ probe }: { probe: ProbeWithRefusals }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const medicineName = useMedicineNames();
  // A locked sample keeps its edit actions on screen, disabled, and says why (ADR 048).
  const locked = Boolean(probe.lock);
  return (
    <Stack gap="md">
      <Anchor
        component="button"
        type="button"
        size="sm"
        w="fit-content"
        // Back where the user came from (the list, a card, a visit); a link opened directly
        // has no earlier entry in the portal, so it leads to the sample list.
        onClick={() => void (hasHistory() ? navigate(-1) : navigate(PROBES_PATH))}
      >
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('probeDetail.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {t('probeDetail.title', { code: probe.code })}
          </Title>
          <Badge variant="light" size="lg" data-testid="probe-status">
            {t(`probe.status.${probe.status}`)}
          </Badge>
          <RecordLockBadge lock={probe.lock} />
        </Group>
        <LabelPrintButton probe={probe} />
      </Group>
      <RecordLockedNotice lock={probe.lock} />
      <VerificationMark
        recordType="probe"
        recordId={probe.id}
        facts={probe}
        canVerify={probe.record_abilities?.verify ?? false}
      />
      <LabRefusals refusals={probe.lab_refusals} />
      <Section title={t('probeDetail.basic')}>
        <BasicData probe={probe} />
      </Section>
      <Section title={t('probeDetail.additional')}>
        <AdditionalData probe={probe} />
      </Section>
      <AdverseEvents probe={probe} writer={can('probes.write')} locked={locked} />
      <Results probe={probe} enterer={can('probes.results')} locked={locked} />
      <SignaturesSection
        type="probe"
        record={probe}
        rows={probeSignedRows(probe, plainTranslate(t), medicineName)}
      />
      <RecordQueries
        scope={{ record_type: 'probe', record_id: probe.id }}
        record={{ type: 'probe', id: probe.id }}
        openCount={probe.open_queries}
      />
    </Stack>
  );
}

/** /probes/{id}: "Próbka nr {code}", its data, adverse events and results with their ranges. */
export function ProbeDetailPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const probe = useProbe(valid ? id : null);

  if (!valid || (probe.isError && isApiError(probe.error) && probe.error.httpStatus === 404)) {
    return (
      <Alert color="yellow" role="alert" title={t('probeDetail.notFoundTitle')}>
        {t('probeDetail.notFound')}{' '}
        <Anchor component={Link} to={PROBES_PATH} fz="sm">
          {t('probeDetail.toList')}
        </Anchor>
      </Alert>
    );
  }
  if (probe.isError) {
    return (
      <Alert color="red" role="alert" title={t('probeDetail.notFoundTitle')}>
        {t('probeDetail.loadError')}
      </Alert>
    );
  }
  if (probe.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  return <ProbeDetail probe={probe.data} />;
}
