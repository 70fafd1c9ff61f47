import { Badge, Button, Card, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  IconCalendarPlus,
  IconCalendarTime,
  IconEye,
  IconHeartbeat,
  IconSortAscending,
  IconSortDescending,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDay } from '@portal/shared';
import type { PatientDetail, Visit } from '@portal/shared';
import { confirmAction } from '../../../components/confirm';
import { isApiError } from '../../../lib/api';
import { commonErrorKey } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { BookingDialog } from '../../../entities/visits/booking-dialog';
import { personName } from '../../../entities/patients/patient-format';
import classes from './card.module.css';
import { HtmlContent } from './html-content';
import { TabState } from './tab-state';
import { shortTime, weekdayName } from '../../../lib/format';
import { ordinalKey, splitVisits } from '../../../entities/visits/visit-format';
import type { SortDirection } from '../../../entities/visits/visit-format';
import { useCancelVisit, usePatientVisits } from '../../../entities/visits/visits-api';

type Kind = 'future' | 'past';
const isKind = (value: string | null): value is Kind => value === 'future' || value === 'past';

/**
 * 'Wizyty': upcoming and past visits as cards with their ordinal names; booking, moving and
 * cancelling upcoming ones, the visit card to record one. Every action is offered only when the
 * server's abilities say so (ADR 045). `?book=1` opens the booking dialog (the overdue list
 * links there).
 */
export function VisitsTab({ patient }: { patient: PatientDetail }) {
  const { t } = useTranslation();
  const mayBook = patient.abilities.book;
  const visits = usePatientVisits(patient.id);
  const [kind, setKind] = useState<Kind>('future');
  // Upcoming: the nearest first; past: the latest first. The toggle flips the shown list.
  const [sort, setSort] = useState<Record<Kind, SortDirection>>({ future: 'asc', past: 'desc' });
  const [params, setParams] = useSearchParams();
  const [moving, setMoving] = useState<Visit | null>(null);
  const booking = mayBook && (params.get('book') === '1' || moving !== null);

  function openBooking() {
    setMoving(null);
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        copy.set('book', '1');
        return copy;
      },
      { replace: true },
    );
  }

  function closeBooking() {
    setMoving(null);
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        copy.delete('book');
        return copy;
      },
      { replace: true },
    );
  }

  const lists = splitVisits(visits.data ?? [], new Date(), sort);
  const direction = sort[kind];
  const flip = () => setSort((now) => ({ ...now, [kind]: now[kind] === 'asc' ? 'desc' : 'asc' }));

  const list = (shown: Kind) => (
    <TabState
      query={visits}
      empty={t(shown === 'future' ? 'card.visits.futureEmpty' : 'card.visits.pastEmpty')}
    >
      {() =>
        lists[shown].length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            {t(shown === 'future' ? 'card.visits.futureEmpty' : 'card.visits.pastEmpty')}
          </Text>
        ) : (
          <Stack component="ul" gap="sm" className={classes.list}>
            {lists[shown].map((visit) => (
              <VisitCard
                key={visit.id}
                visit={visit}
                past={shown === 'past'}
                onMove={() => setMoving(visit)}
              />
            ))}
          </Stack>
        )
      }
    </TabState>
  );

  const sortLabel = t(direction === 'asc' ? 'card.visits.sortAsc' : 'card.visits.sortDesc');
  return (
    <Tabs
      value={kind}
      onChange={(value) => isKind(value) && setKind(value)}
      variant="pills"
      keepMounted={false}
      activateTabWithKeyboard
    >
      <Group justify="space-between" wrap="wrap" gap="sm" mb="md">
        <Tabs.List aria-label={t('card.visits.kinds')}>
          <Tabs.Tab value="future">
            {t('card.visits.future')} ({lists.future.length})
          </Tabs.Tab>
          <Tabs.Tab value="past">
            {t('card.visits.past')} ({lists.past.length})
          </Tabs.Tab>
        </Tabs.List>
        <Group gap="sm" wrap="wrap">
          <Button
            variant="default"
            onClick={flip}
            aria-label={`${sortLabel} (${t('card.visits.sortLabel')})`}
            leftSection={
              direction === 'asc' ? (
                <IconSortAscending size={16} aria-hidden />
              ) : (
                <IconSortDescending size={16} aria-hidden />
              )
            }
          >
            {sortLabel}
          </Button>
          {mayBook && (
            <Button leftSection={<IconCalendarPlus size={16} aria-hidden />} onClick={openBooking}>
              {t('card.visits.book')}
            </Button>
          )}
        </Group>
      </Group>
      <Tabs.Panel value="future">{list('future')}</Tabs.Panel>
      <Tabs.Panel value="past">{list('past')}</Tabs.Panel>
      <BookingDialog opened={booking} patient={patient} visit={moving} onClose={closeBooking} />
    </Tabs>
  );
}

function VisitCard({ visit, past, onMove }: { visit: Visit; past: boolean; onMove: () => void }) {
  const { t, i18n } = useTranslation();
  const cancel = useCancelVisit();
  const { key, options } = ordinalKey(visit.ordinal);
  const name = t(key, options);
  const date = formatDay(visit.date);
  const titleId = `visit-${visit.id}-title`;
  const cardPath = `/patients/${visit.patient_id}/visits/${visit.id}`;
  const recordable = visit.abilities.record && !visit.isDone;

  function askCancel() {
    confirmAction({
      question: t('card.visits.confirmCancel'),
      danger: true,
      onConfirm: () =>
        cancel.mutate(visit.id, {
          onSuccess: () => notifySuccess(t('card.visits.cancelled')),
          onError: (error) =>
            notifyError(
              isApiError(error) && error.httpStatus === 409
                ? t('card.visits.cannotCancel')
                : t(commonErrorKey(error)),
            ),
        }),
    });
  }

  return (
    <Card component="li" withBorder padding="md" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4}>
          <Group gap="xs" wrap="wrap">
            <Title order={3} size="h5" id={titleId}>
              {name}
            </Title>
            {visit.isDone && (
              <Badge color="teal" variant="light">
                {t('card.visits.done')}
              </Badge>
            )}
            {visit.out_of_window && (
              <Badge color="orange" variant="light">
                {t('card.visits.outOfWindow')}
              </Badge>
            )}
          </Group>
          <Text size="sm">
            {weekdayName(visit.date, i18n.resolvedLanguage ?? 'pl')}, {date}
          </Text>
          <Text size="sm">
            {t('card.visits.time')}: {shortTime(visit.started_at)}–{shortTime(visit.ended_at)}
          </Text>
          <Text size="sm">
            {t('card.visits.doctor')}: {personName(visit.doctor, t('card.visits.noDoctor'))}
          </Text>
          {visit.out_of_window && visit.window_reason && (
            <Text size="sm" c="dimmed">
              {t('card.visits.reason')}: {visit.window_reason}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="wrap">
          {/* On its day (or later, while not recorded) the visit is recorded on its card; a
              recorded one is seen there. Moving and cancelling only as the server allows. */}
          {recordable ? (
            <Button
              component={Link}
              to={cardPath}
              size="xs"
              leftSection={<IconHeartbeat size={14} aria-hidden />}
              aria-label={t('card.visits.recordLabel', { name, date })}
            >
              {t('card.visits.record')}
            </Button>
          ) : (
            (past || visit.isDone) && (
              <Button
                component={Link}
                to={cardPath}
                variant="light"
                size="xs"
                leftSection={<IconEye size={14} aria-hidden />}
                aria-label={t('card.visits.seeLabel', { name, date })}
              >
                {t('card.visits.see')}
              </Button>
            )
          )}
          {visit.abilities.edit && (
            <Button
              variant="light"
              size="xs"
              leftSection={<IconCalendarTime size={14} aria-hidden />}
              aria-label={t('card.visits.rescheduleLabel', { name, date })}
              onClick={onMove}
            >
              {t('card.visits.reschedule')}
            </Button>
          )}
          {visit.abilities.cancel && (
            <Button
              variant="light"
              color="red"
              size="xs"
              leftSection={<IconX size={14} aria-hidden />}
              aria-label={t('card.visits.cancelLabel', { name, date })}
              loading={cancel.isPending}
              onClick={askCancel}
            >
              {t('card.visits.cancel')}
            </Button>
          )}
        </Group>
      </Group>
      {visit.isDone && visit.comment && (
        <Stack gap={2} mt="sm">
          <Text size="xs" c="dimmed">
            {t('card.visits.comment')}
          </Text>
          <HtmlContent html={visit.comment} />
        </Stack>
      )}
    </Card>
  );
}
