import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, WINDOW_REASON_MAX, warsawToday } from '@portal/shared';
import type { PatientDetail, Visit, VisitBody, VisitWindowView } from '@portal/shared';
import { FormModal } from '../../components/form-modal';
import { LocalizedDates } from '../../components/localized-dates';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { hideToast, notifyError, notifySuccess, notifyWarning } from '../../lib/notify';
import { personName } from '../patients/patient-format';
import { shortTime } from '../../lib/format';
import { isWeekend, ordinalKey, outsideWindow } from './visit-format';
import { useSaveVisit, useSlots, useVisitWindow } from './visits-api';

const CHOOSE_SLOT_TOAST = 'booking-choose-slot';

type BookingPatient = Pick<PatientDetail, 'id' | 'unit_id' | 'firstname' | 'surname'>;

/**
 * "Umawianie wizyty": a Polish calendar (weekends, past days and days beyond the booking
 * horizon disabled, the next visit's window marked), the chosen day's slots as HH:MM (booked ones name their patient and cannot be
 * chosen), Anuluj and Umów. Given a visit, it moves that visit (PUT) instead of booking a new one.
 */
export function BookingDialog({
  opened,
  patient,
  visit,
  onClose,
}: {
  opened: boolean;
  patient: BookingPatient;
  /** The visit being rescheduled; none books a new one. */
  visit: Visit | null;
  onClose: () => void;
}) {
  // Mounted afresh for every opening, so that nothing chosen last time is left behind.
  return opened ? (
    <BookingForm key={visit?.id ?? 'new'} patient={patient} visit={visit} onClose={onClose} />
  ) : null;
}

function BookingForm({
  patient,
  visit,
  onClose,
}: {
  patient: BookingPatient;
  visit: Visit | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const today = warsawToday();
  // The window endpoint describes the NEXT visit number; a moved visit keeps its own number,
  // so its window is the server's to check (422 window_reason_required shows the field).
  const windowQuery = useVisitWindow(patient.id);
  const window = visit === null ? (windowQuery.data?.data ?? null) : null;
  // Days after today + the booking horizon are not offered (the server refuses them, ADR 038).
  const bookableUntil = windowQuery.data?.bookable_until;
  const [date, setDate] = useState<string | null>(
    visit && visit.date >= today && !isWeekend(visit.date) ? visit.date : null,
  );
  const [slot, setSlot] = useState<string | null>(null);
  // "Choose a slot" leaves once one is chosen, and with the dialog (ADR 039).
  useEffect(() => {
    if (slot) hideToast(CHOOSE_SLOT_TOAST);
  }, [slot]);
  useEffect(() => () => hideToast(CHOOSE_SLOT_TOAST), []);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [reasonAsked, setReasonAsked] = useState(false);
  const slots = useSlots(patient.unit_id, date);
  const save = useSaveVisit();

  const needsReason = outsideWindow(date, window) || reasonAsked;

  function chooseDay(day: string | null) {
    setDate(day);
    setSlot(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!date || !slot) {
      notifyWarning(t('card.booking.chooseSlot'), { id: CHOOSE_SLOT_TOAST });
      return;
    }
    if (needsReason && reason.trim() === '') {
      setReasonError(t('card.booking.reasonRequired'));
      return;
    }
    const body: VisitBody = {
      patient_id: patient.id,
      date,
      started_at: slot,
      ...(needsReason ? { window_reason: reason.trim() } : {}),
    };
    save.mutate(
      visit
        ? { visitId: visit.id, body: { ...body, version: visit.version } }
        : { visitId: null, body },
      {
        onSuccess: () => {
          notifySuccess(t(visit ? 'card.booking.rescheduled' : 'card.booking.booked'));
          onClose();
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 'not_available') {
            notifyError(t('card.booking.notAvailable'));
            setSlot(null);
            return;
          }
          if (isApiError(error) && error.httpStatus === 422) {
            const fields = serverFieldErrors(error);
            if (fields.window_reason) {
              setReasonAsked(true);
              setReasonError(fields.window_reason);
            }
            // A validation error stays on screen until the user closes it (docs/product-rules.md
            // "Messages shown to users").
            notifyError(t('common.validationError'), { sticky: true });
            return;
          }
          notifyError(t(commonErrorKey(error)));
        },
      },
    );
  }

  const name = `${patient.surname} ${patient.firstname}`;
  return (
    <FormModal
      opened
      title={t(visit ? 'card.booking.rescheduleTitle' : 'card.booking.title')}
      onClose={onClose}
      onSubmit={submit}
      saving={save.isPending}
      submitLabel={t('card.booking.submit')}
    >
      <Text size="sm">{t('card.booking.patient', { name })}</Text>
      {visit && (
        <Text size="sm" c="dimmed">
          {t('card.booking.rescheduling', {
            name: t(ordinalKey(visit.ordinal).key, ordinalKey(visit.ordinal).options),
            date: formatDay(visit.date),
            time: shortTime(visit.started_at),
          })}
        </Text>
      )}
      {window && <WindowText window={window} />}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Stack gap={4} align="center">
          <Text size="sm" fw={500} id="booking-calendar-label" w="100%">
            {t('card.booking.calendar')}
          </Text>
          <LocalizedDates>
            <DatePicker
              // The window arrives after the dialog opens; a new key opens the calendar on the
              // window's month instead of leaving the coordinator on today's.
              key={date === null && window ? window.from : 'calendar'}
              aria-labelledby="booking-calendar-label"
              value={date}
              onChange={chooseDay}
              minDate={today}
              maxDate={bookableUntil}
              defaultDate={date ?? (window && window.from > today ? window.from : today)}
              excludeDate={isWeekend}
              getDayProps={(day) => dayInWindow(day, window)}
              getDayAriaLabel={(day) => {
                const label = dayjs(day)
                  .locale(i18n.resolvedLanguage ?? 'pl')
                  .format('D MMMM YYYY');
                return inWindow(day, window) ? `${label}, ${t('card.booking.inWindow')}` : label;
              }}
              size="sm"
              maxLevel="year"
              ariaLabels={{
                nextMonth: t('card.booking.nextMonth'),
                previousMonth: t('card.booking.previousMonth'),
                nextYear: t('card.booking.nextYear'),
                previousYear: t('card.booking.previousYear'),
              }}
            />
          </LocalizedDates>
        </Stack>
        <SlotList
          date={date}
          slots={slots}
          chosen={slot}
          onChoose={setSlot}
          movedVisitId={visit?.id ?? null}
        />
      </SimpleGrid>
      {needsReason && (
        <>
          <Alert color="yellow" variant="light" role="status">
            {t('card.booking.outsideWindow')}
          </Alert>
          <Textarea
            label={t('card.booking.reason')}
            required
            autosize
            minRows={2}
            maxLength={WINDOW_REASON_MAX}
            value={reason}
            error={reasonError}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setReasonError(null);
            }}
          />
        </>
      )}
    </FormModal>
  );
}

const inWindow = (day: string, window: VisitWindowView | null) =>
  window !== null && day >= window.from && day <= window.to;

/** Mantine's range look marks the window's days; the label says it for screen readers. */
function dayInWindow(day: string, window: VisitWindowView | null) {
  if (!inWindow(day, window) || !window) return {};
  return {
    inRange: true,
    firstInRange: day === window.from,
    lastInRange: day === window.to,
    'data-in-window': true,
  };
}

function WindowText({ window }: { window: VisitWindowView }) {
  const { t } = useTranslation();
  const { key, options } = ordinalKey(window.visit);
  return (
    <Alert color="blue" variant="light" icon={<IconCalendarEvent size={18} aria-hidden />}>
      <Text size="sm">
        {t('card.booking.window', {
          name: t(key, options),
          target: formatDay(window.target_date),
          from: formatDay(window.from),
          to: formatDay(window.to),
        })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('card.booking.windowLegend')}
      </Text>
    </Alert>
  );
}

function SlotList({
  date,
  slots,
  chosen,
  onChoose,
  movedVisitId,
}: {
  date: string | null;
  slots: ReturnType<typeof useSlots>;
  chosen: string | null;
  onChoose: (slot: string) => void;
  movedVisitId: number | null;
}) {
  const { t } = useTranslation();
  if (!date) {
    return (
      <Text size="sm" c="dimmed">
        {t('card.booking.chooseDay')}
      </Text>
    );
  }
  const heading = t('card.booking.slots', { date: formatDay(date) });
  let body;
  if (slots.isPending) {
    body = (
      <Center py="md">
        <Loader size="sm" role="status" aria-label={t('app.loading')} />
      </Center>
    );
  } else if (slots.isError) {
    body = (
      <Alert color="red" role="alert">
        {t('card.booking.slotsError')}
      </Alert>
    );
  } else if (slots.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        {t('card.booking.noSlots')}
      </Text>
    );
  } else {
    body = (
      <Group gap="xs" role="group" aria-label={heading}>
        {slots.data.map((item) => {
          const time = shortTime(item.started_at);
          if (item.visit) {
            const who = personName(
              { firstname: item.visit.patient.firstname, surname: item.visit.patient.surname },
              '',
            );
            return (
              <Button
                key={item.started_at}
                type="button"
                size="compact-sm"
                variant={item.visit.id === movedVisitId ? 'light' : 'default'}
                disabled
                // A visit in hours blocked after it was booked stays shown as booked (ADR 041).
                aria-label={t(item.closed ? 'card.booking.takenClosed' : 'card.booking.taken', {
                  time,
                  name: who,
                })}
                styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
              >
                {item.closed
                  ? t('card.booking.takenClosed', { time, name: who })
                  : `${time} – ${who}`}
              </Button>
            );
          }
          const selected = chosen === item.started_at;
          return (
            <Button
              key={item.started_at}
              type="button"
              size="compact-sm"
              variant={selected ? 'filled' : 'outline'}
              aria-pressed={selected}
              onClick={() => onChoose(item.started_at)}
            >
              {time}
            </Button>
          );
        })}
      </Group>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {heading}
      </Text>
      {body}
    </Stack>
  );
}
