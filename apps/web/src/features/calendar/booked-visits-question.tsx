import { List, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { formatDay } from '@portal/shared';
import type { CalendarBookedVisit } from '@portal/shared';
import { i18n } from '../../i18n/i18n';
import { shortTime } from '../../lib/format';

/**
 * Before hours with booked visits are closed (the server's 409 `visits_booked`, ADR 041): the
 * visits by day, time and patient, and "Zablokuj mimo to" / "Anuluj". The visits stay booked
 * and visible; the coordinator reschedules or cancels them from the patient's card.
 */
export function askAboutBookedVisits(visits: CalendarBookedVisit[], onConfirm: () => void) {
  const t = i18n.t.bind(i18n);
  modals.openConfirmModal({
    title: t('calendar.bookedQuestion', { count: visits.length }),
    centered: true,
    withCloseButton: false,
    children: (
      <Stack gap="xs">
        <Text size="sm">{t('calendar.bookedDetail')}</Text>
        <List size="sm" spacing={4} aria-label={t('calendar.bookedList')}>
          {visits.map((visit) => (
            <List.Item key={visit.id}>
              {formatDay(visit.date)}, {shortTime(visit.started_at)}–{shortTime(visit.ended_at)}:{' '}
              {visit.patient.surname} {visit.patient.firstname}
            </List.Item>
          ))}
        </List>
      </Stack>
    ),
    labels: { confirm: t('calendar.bookedConfirm'), cancel: t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
