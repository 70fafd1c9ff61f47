import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  FileButton,
  Group,
  Loader,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  Title,
  Typography,
} from '@mantine/core';
import { IconArrowLeft, IconEdit, IconUpload } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatDateTime, formatDay } from '@portal/shared';
import type { Visit } from '@portal/shared';
import { confirmAction } from '../../components/confirm';
import { isApiError } from '../../lib/api';
import { commonErrorKey, isStaleVersion, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  useDeleteEcgFile,
  useRecordVisit,
  useSaveVisitNotes,
  useUploadEcgFile,
  useVisit,
} from './visit-api';
import { usePatient } from '../../entities/patients/patients-api';
import { ordinalKey } from '../../entities/visits/visit-format';
import { shortTime, weekdayName } from '../../lib/format';
import { DeleteIconButton } from '../../components/delete-icon-button';
import { RichTextDialog } from '../../components/rich-text-dialog';
import { downloadFile } from '../../api/files';
import { RecordQueries } from '../../entities/monitoring/record-queries';
import { VerificationMark } from '../../entities/monitoring/verification-mark';
import {
  RecordLockBadge,
  RecordLockedNotice,
  SignaturesSection,
} from '../../entities/signatures/signature-panel';
import { plainTranslate, visitSignedRows } from '../../entities/signatures/signature-format';
import {
  ECG_ACCEPT,
  ECG_INPUTS,
  ECG_ROWS,
  commentToHtml,
  ecgFileProblem,
  htmlToText,
  referenceText,
} from './visit-format';

const visitsTabOf = (patientId: number) => `/patients/card/${patientId}?tab=visits`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Summary({ visit }: { visit: Visit }) {
  const { t, i18n } = useTranslation();
  const ordinal = ordinalKey(visit.ordinal);
  const facts: [string, ReactNode][] = [
    [t('visitCard.patient'), `${visit.patient.surname} ${visit.patient.firstname}`],
    [t('visitCard.date'), `${weekdayName(visit.date, i18n.language)}, ${formatDay(visit.date)}`],
    [t('visitCard.time'), `${shortTime(visit.started_at)}–${shortTime(visit.ended_at)}`],
    [
      t('visitCard.doctor'),
      visit.doctor ? `${visit.doctor.firstname} ${visit.doctor.surname}` : '–',
    ],
  ];
  return (
    <Card withBorder padding="md">
      <Group gap="xs" mb="sm" wrap="wrap">
        <Text fw={600}>{t(ordinal.key, ordinal.options)}</Text>
        <Badge color={visit.isDone ? 'teal' : 'gray'} variant="light">
          {visit.isDone ? t('visitCard.done') : t('visitCard.notDone')}
        </Badge>
        {visit.out_of_window && (
          <Badge color="orange" variant="light">
            {t('visitCard.outOfWindow')}
          </Badge>
        )}
        <RecordLockBadge lock={visit.lock} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0}>
        {facts.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} data-testid={`visit-${label}`}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {visit.out_of_window && visit.window_reason && (
        <Text size="sm" mt="sm">
          {t('visitCard.windowReason')}: {visit.window_reason}
        </Text>
      )}
    </Card>
  );
}

function EcgTable({ visit, sex }: { visit: Visit; sex: 'M' | 'K' }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" aria-label={t('visitCard.ecg')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('visitCard.parameter')}</Table.Th>
            <Table.Th>{t('visitCard.value')}</Table.Th>
            <Table.Th>{t('visitCard.reference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ECG_ROWS.map((parameter) => {
            const value = visit.results[parameter];
            const outOfNorm = visit.out_of_norm.includes(parameter);
            return (
              <Table.Tr key={parameter} data-testid={`ecg-${parameter}`}>
                <Table.Th scope="row" fw={500}>
                  {t(`visitCard.parameters.${parameter}`)}
                </Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="wrap">
                    <Text
                      size="sm"
                      fw={outOfNorm ? 700 : undefined}
                      c={outOfNorm ? 'red.9' : undefined}
                    >
                      {value === null ? '–' : `${value} ms`}
                    </Text>
                    {outOfNorm && (
                      <Badge color="red" variant="filled" size="sm">
                        {t('visitCard.outOfNorm')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{referenceText(parameter, sex) ?? '–'}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

type EcgInput = (typeof ECG_INPUTS)[number];

/** The record form: done, QT/RR/PQ/QRS in ms and the comment; the server computes the rest. */
function RecordForm({ visit }: { visit: Visit }) {
  const { t } = useTranslation();
  const record = useRecordVisit(visit.id);
  const [isDone, setIsDone] = useState(visit.isDone);
  const [values, setValues] = useState<Record<EcgInput, number | string>>({
    qt: visit.results.qt ?? '',
    rr: visit.results.rr ?? '',
    pq: visit.results.pq ?? '',
    qrs: visit.results.qrs ?? '',
  });
  const [comment, setComment] = useState(() => htmlToText(visit.comment));
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    const number = (value: number | string) => (value === '' ? null : Number(value));
    record.mutate(
      {
        isDone,
        comment: commentToHtml(comment),
        results: {
          qt: number(values.qt),
          rr: number(values.rr),
          pq: number(values.pq),
          qrs: number(values.qrs),
        },
        version: visit.version,
      },
      {
        onSuccess: () => notifySuccess(t('visitCard.saved')),
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (Object.keys(fields).length) {
            setErrors(fields);
            notifyError(t('common.validationError'));
          } else if (isApiError(error) && error.status === 'too_early') {
            notifyError(t('visitCard.tooEarly'));
          } else if (isApiError(error) && error.status === 'patient_deleted') {
            notifyError(t('visitCard.patientDeleted'));
          } else notifyError(t(commonErrorKey(error)));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={record.isPending}>
      <Stack gap="md">
        <Switch
          label={t('visitCard.doneSwitch')}
          checked={isDone}
          onChange={(event) => setIsDone(event.currentTarget.checked)}
          error={errors.isDone}
        />
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {ECG_INPUTS.map((parameter) => (
            <NumberInput
              key={parameter}
              label={t(`visitCard.inputs.${parameter}`)}
              value={values[parameter]}
              onChange={(value) => setValues((current) => ({ ...current, [parameter]: value }))}
              allowDecimal={false}
              hideControls
              inputMode="numeric"
              error={errors[`results.${parameter}`]}
            />
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('visitCard.computedHint')}
        </Text>
        <Textarea
          label={t('visitCard.comment')}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          autosize
          minRows={3}
          error={errors.comment}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={record.isPending}>
            {t('visitCard.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EcgFiles({ visit, readOnly }: { visit: Visit; readOnly: boolean }) {
  const { t } = useTranslation();
  const upload = useUploadEcgFile(visit.id);
  const remove = useDeleteEcgFile(visit.id);

  function send(file: File | null) {
    if (!file) return;
    const problem = ecgFileProblem(file);
    if (problem) {
      notifyError(
        problem === 'type' ? t('validation.invalid_file_type') : t('validation.file_too_large'),
      );
      return;
    }
    upload.mutate(file, {
      onSuccess: () => notifySuccess(t('visitCard.files.uploaded')),
      // The server names what is wrong with the file in the user's language, when it can.
      onError: (error) =>
        notifyError(serverFieldErrors(error).file ?? t('visitCard.files.uploadError')),
    });
  }

  function askDelete(file: Visit['files'][number]) {
    confirmAction({
      question: t('visitCard.files.confirmDelete', { name: file.original_name }),
      danger: true,
      onConfirm: () =>
        remove.mutate(file.id, {
          onSuccess: () => notifySuccess(t('visitCard.files.removed')),
          onError: (error) => notifyError(t(commonErrorKey(error))),
        }),
    });
  }

  return (
    <Stack gap="sm">
      {!readOnly && (
        <Group gap="sm" wrap="wrap">
          <FileButton onChange={send} accept={ECG_ACCEPT}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconUpload size={16} aria-hidden />}
                loading={upload.isPending}
              >
                {t('visitCard.files.upload')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('visitCard.files.hint')}
          </Text>
        </Group>
      )}
      {visit.files.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('visitCard.files.empty')}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {visit.files.map((file) => (
            <Group component="li" key={file.id} justify="space-between" wrap="nowrap" gap="sm">
              <div style={{ minWidth: 0 }}>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  ta="left"
                  style={{ overflowWrap: 'anywhere' }}
                  aria-label={t('visitCard.files.download', { name: file.original_name })}
                  onClick={() =>
                    void downloadFile(file).catch(() =>
                      notifyError(t('visitCard.files.downloadError')),
                    )
                  }
                >
                  {file.original_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatDateTime(file.created_at)}
                </Text>
              </div>
              {!readOnly && (
                <DeleteIconButton
                  tooltip={t('visitCard.files.delete')}
                  label={`${t('visitCard.files.delete')}: ${file.original_name}`}
                  onClick={() => askDelete(file)}
                />
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The visit's notes (ADR 038): rich text, edited in the rich-text dialog by who may record. */
function VisitNotes({ visit, writer, locked }: { visit: Visit; writer: boolean; locked: boolean }) {
  const { t } = useTranslation();
  const save = useSaveVisitNotes(visit.id);
  const [editing, setEditing] = useState(false);
  const refetch = useVisit(visit.id).refetch;

  function submit(html: string) {
    save.mutate(
      { notes: html === '' ? null : html, version: visit.version },
      {
        onSuccess: () => {
          setEditing(false);
          notifySuccess(t('visitCard.notes.saved'));
        },
        onError: (error) => {
          if (isStaleVersion(error)) {
            setEditing(false);
            void refetch();
            notifyError(t('visitCard.notes.conflict'), { sticky: true });
          } else if (isApiError(error) && error.status === 'patient_deleted') {
            notifyError(t('visitCard.patientDeleted'));
          } else {
            notifyError(serverFieldErrors(error).notes ?? t(commonErrorKey(error)));
          }
        },
      },
    );
  }

  return (
    <Stack gap="sm">
      {visit.notes ? (
        // Safe: the server sanitises the notes to the rich-text allow list before storing them.
        <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
          <div data-testid="visit-notes" dangerouslySetInnerHTML={{ __html: visit.notes }} />
        </Typography>
      ) : (
        <Text c="dimmed" size="sm">
          {t('visitCard.notes.empty')}
        </Text>
      )}
      {writer && (
        <Group>
          <Button
            variant="light"
            leftSection={<IconEdit size={16} aria-hidden />}
            onClick={() => setEditing(true)}
            disabled={locked}
          >
            {t('visitCard.notes.edit')}
          </Button>
          {locked && <LockedHint />}
        </Group>
      )}
      <RichTextDialog
        opened={editing}
        title={t('visitCard.notes.dialogTitle')}
        label={t('visitCard.notes.label')}
        initialValue={visit.notes ?? ''}
        submitLabel={t('visitCard.notes.save')}
        saving={save.isPending}
        allowBlank
        onSubmit={submit}
        onClose={() => setEditing(false)}
      />
    </Stack>
  );
}

/** Beside an edit action of a locked record (ADR 048): why it is disabled. */
function LockedHint() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {t('signatures.lockedAction')}
    </Text>
  );
}

function VisitCard({ visit, sex, deleted }: { visit: Visit; sex: 'M' | 'K'; deleted: boolean }) {
  const { t } = useTranslation();
  // A locked record keeps its edit actions on screen, disabled, and says why (ADR 048).
  const locked = Boolean(visit.lock);
  // What the server allows on this visit (ADR 045): its notes and files by whoever may write
  // it, the record from its day on. A recorded visit opens read-only ("Zobacz"); correcting it
  // is asked for explicitly.
  const writer = visit.abilities.notes;
  // Opened before it was recorded, the form stays after saving (the switch may be turned back).
  // Opened from a monitor's query (`?query=`) to correct the data, it shows the form too.
  const [search] = useSearchParams();
  const [correcting, setCorrecting] = useState(() => !visit.isDone);
  const recording = visit.abilities.record && (correcting || search.has('query'));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={visitsTabOf(visit.patient_id)} size="sm" w="fit-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('visitCard.back')}
        </Group>
      </Anchor>
      <Title order={1} size="h2">
        {t('visitCard.title')}
      </Title>
      {deleted && <Alert color="yellow">{t('visitCard.patientDeleted')}</Alert>}
      <RecordLockedNotice lock={visit.lock} />
      <Summary visit={visit} />
      <VerificationMark
        recordType="visit"
        recordId={visit.id}
        facts={visit}
        canVerify={visit.record_abilities?.verify ?? false}
      />

      <Section title={t('visitCard.ecg')}>
        <EcgTable visit={visit} sex={sex} />
      </Section>

      <RecordQueries
        scope={{ record_type: 'visit', record_id: visit.id }}
        record={{ type: 'visit', id: visit.id }}
        openCount={visit.open_queries}
      />

      {writer && (
        <Section title={t('visitCard.record')}>
          {recording && !locked ? (
            <RecordForm key={visit.version} visit={visit} />
          ) : visit.abilities.record ? (
            <Group gap="sm">
              <Button
                variant="light"
                w="fit-content"
                leftSection={<IconEdit size={16} aria-hidden />}
                onClick={() => setCorrecting(true)}
                disabled={locked}
              >
                {t('visitCard.correct')}
              </Button>
              {locked && <LockedHint />}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('visitCard.notYet')}
            </Text>
          )}
        </Section>
      )}

      <Section title={t('visitCard.notes.title')}>
        <VisitNotes visit={visit} writer={writer} locked={locked} />
      </Section>

      <Section title={t('visitCard.files.title')}>
        <EcgFiles visit={visit} readOnly={!writer || locked} />
      </Section>

      <Section title={t('visitCard.samples')}>
        {visit.probes.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('visitCard.noSamples')}
          </Text>
        ) : (
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
            {visit.probes.map((probe) => (
              <li key={probe.id}>
                <Anchor component={Link} to={`/probes/${probe.id}`} size="sm">
                  {t('visitCard.sample', { code: probe.code })}
                </Anchor>{' '}
                <Text span size="xs" c="dimmed">
                  {formatDateTime(probe.created_at)}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Section>

      <SignaturesSection
        type="visit"
        record={visit}
        rows={visitSignedRows(visit, plainTranslate(t))}
      />

      <Section title={t('visitCard.comment')}>
        {visit.comment ? (
          // Safe: the server sanitises every comment to a small allow list before storing it.
          <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
            <div data-testid="visit-comment" dangerouslySetInnerHTML={{ __html: visit.comment }} />
          </Typography>
        ) : (
          <Text c="dimmed" size="sm">
            {t('visitCard.noComment')}
          </Text>
        )}
      </Section>
    </Stack>
  );
}

/** /patients/{patientId}/visits/{id}: "Karta wizyty", the visit's record and its ECG. */
export function VisitCardPage() {
  const { t } = useTranslation();
  const params = useParams();
  const patientId = Number(params.patientId);
  const visitId = Number(params.id);
  const valid = [patientId, visitId].every((n) => Number.isInteger(n) && n > 0);
  const visit = useVisit(valid ? visitId : null);
  const patient = usePatient(valid ? patientId : null);

  const notFound =
    !valid ||
    (visit.isError && isApiError(visit.error) && visit.error.httpStatus === 404) ||
    (visit.isSuccess && visit.data.patient_id !== patientId);
  if (notFound) {
    return (
      <Alert color="yellow" role="alert" title={t('visitCard.title')}>
        {t('visitCard.notFound')}{' '}
        {valid && (
          <Anchor component={Link} to={visitsTabOf(patientId)} fz="sm">
            {t('visitCard.back')}
          </Anchor>
        )}
      </Alert>
    );
  }
  if (visit.isError || patient.isError) {
    return (
      <Alert color="red" role="alert" title={t('visitCard.title')}>
        {t('visitCard.loadError')}
      </Alert>
    );
  }
  if (visit.isPending || patient.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  return (
    <VisitCard
      visit={visit.data}
      sex={patient.data.sex}
      deleted={Boolean(patient.data.deleted_at)}
    />
  );
}
