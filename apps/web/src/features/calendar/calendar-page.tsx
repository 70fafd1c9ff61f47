import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { WHOLE_DAY_END, WHOLE_DAY_START, warsawToday } from '@portal/shared';
import type { CalendarRule } from '@portal/shared';
import { confirmAction } from '../../components/confirm';
import { LocalizedDates } from '../../components/localized-dates';
import { PageHeader } from '../../components/page-header';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError } from '../../lib/notify';
import { askAboutBookedVisits } from './booked-visits-question';
import {
  bookedVisitsOf,
  useDayRules,
  useDayVisits,
  useDeleteRule,
  useRulesCount,
  useSaveRule,
  useUnit,
} from './calendar-api';
import {
  dayOfMonthLabel,
  daySummaries,
  firstOfMonth,
  monthOf,
  ownWholeDayBlock,
  ruleHours,
  summaryOf,
} from './calendar-days';
import { shortTime, weekdayName } from '../../lib/format';
import classes from './calendar-page.module.css';
import { RuleModal } from './rule-modal';

type Editing = { rule: CalendarRule | null } | null;

/** The right panel: the chosen day's rules, the add button and the whole-day block switch. */
function DayPanel({ unitId, date }: { unitId: number; date: string }) {
  const { t, i18n } = useTranslation();
  const rules = useDayRules(unitId, date);
  const save = useSaveRule(unitId);
  const remove = useDeleteRule(unitId);
  const [editing, setEditing] = useState<Editing>(null);
  const weekday = weekdayName(date, i18n.resolvedLanguage ?? 'pl');
  const block = ownWholeDayBlock(rules.data ?? [], date);
  const busy = save.isPending || remove.isPending;
  const failed = (error: unknown) => notifyError(t(commonErrorKey(error)));

  // The state the user asked for, shown until the rule is written and the day refetched.
  const [asked, setAsked] = useState<boolean | null>(null);
  const settled = { onError: failed, onSettled: () => setAsked(null) };

  const blockWholeDay = (confirm: boolean) => {
    setAsked(true);
    save.mutate(
      {
        id: null,
        body: {
          unit_id: unitId,
          date,
          started_at: WHOLE_DAY_START,
          ended_at: WHOLE_DAY_END,
          type: 'disabled',
          is_global: false,
          ...(confirm ? { confirm_booked_visits: true } : {}),
        },
      },
      {
        // Booked visits that day: the server lists them; the user confirms, or nothing changes
        // (ADR 041).
        onError: (error) => {
          const visits = bookedVisitsOf(error);
          if (visits) askAboutBookedVisits(visits, () => blockWholeDay(true));
          else failed(error);
        },
        onSettled: () => setAsked(null),
      },
    );
  };

  const toggleWholeDay = (on: boolean) => {
    if (on) blockWholeDay(false);
    else if (block) {
      setAsked(false);
      remove.mutate({ id: block.id }, settled);
    }
  };

  const deleteRule = (rule: CalendarRule, confirm: boolean) =>
    remove.mutate(
      { id: rule.id, confirm },
      {
        onError: (error) => {
          const visits = bookedVisitsOf(error);
          if (visits) askAboutBookedVisits(visits, () => deleteRule(rule, true));
          else failed(error);
        },
      },
    );

  const askDelete = (rule: CalendarRule) =>
    confirmAction({
      question: t('calendar.deleteQuestion'),
      detail: rule.is_global
        ? t('calendar.deleteGlobalDetail', { hours: ruleHours(rule), weekday })
        : ruleHours(rule),
      danger: true,
      onConfirm: () => deleteRule(rule, false),
    });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="calendar-day-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="calendar-day-title">
          {t('calendar.dayTitle', { weekday, date: dayOfMonthLabel(date) })}
        </Title>
        <Switch
          label={t('calendar.blockWholeDay')}
          checked={asked ?? !!block}
          disabled={rules.isPending || busy}
          onChange={(event) => toggleWholeDay(event.currentTarget.checked)}
        />
        {rules.isPending && <Loader size="sm" role="status" aria-label={t('app.loading')} />}
        {rules.isError && (
          <Alert color="red" variant="light">
            {t(commonErrorKey(rules.error))}
          </Alert>
        )}
        {rules.data && rules.data.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('calendar.noRules')}
          </Text>
        )}
        {rules.data && rules.data.length > 0 && (
          <Stack gap="xs" component="ul" className={classes.rules} aria-label={t('calendar.rules')}>
            {rules.data.map((rule) => {
              const hours = ruleHours(rule);
              const name = `${t(rule.type === 'enabled' ? 'calendar.unblocked' : 'calendar.blocked')} ${hours}`;
              return (
                <Paper key={rule.id} component="li" withBorder p="xs" radius="sm">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Group gap="xs" wrap="wrap">
                      <Badge
                        color={rule.type === 'enabled' ? 'teal' : 'red'}
                        variant="light"
                        tt="none"
                      >
                        {t(rule.type === 'enabled' ? 'calendar.unblocked' : 'calendar.blocked')}
                      </Badge>
                      <Text fw={600}>{hours}</Text>
                      {rule.is_global && (
                        <Badge color="gray" variant="outline" tt="none">
                          {t('calendar.everyWeekday', { weekday })}
                        </Badge>
                      )}
                    </Group>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label={t('common.edit')} withinPortal>
                        <ActionIcon
                          variant="subtle"
                          size="lg"
                          aria-label={t('calendar.editRuleNamed', { name })}
                          onClick={() => setEditing({ rule })}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('common.delete')} withinPortal>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          size="lg"
                          aria-label={t('calendar.deleteRuleNamed', { name })}
                          onClick={() => askDelete(rule)}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Group>
                </Paper>
              );
            })}
          </Stack>
        )}
        <Group>
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({ rule: null })}
          >
            {t('calendar.addRule')}
          </Button>
        </Group>
        <DayVisits unitId={unitId} date={date} />
      </Stack>
      {editing && (
        <RuleModal
          key={editing.rule?.id ?? 'new'}
          unitId={unitId}
          date={date}
          weekday={weekday}
          rule={editing.rule}
          onClose={() => setEditing(null)}
        />
      )}
    </Paper>
  );
}

/**
 * The day's booked visits (time and patient), also when the day or their hours are blocked:
 * blocking never hides or cancels a booked visit (ADR 041).
 */
function DayVisits({ unitId, date }: { unitId: number; date: string }) {
  const { t } = useTranslation();
  const visits = useDayVisits(unitId, date);
  return (
    <Stack gap="xs" component="section" aria-labelledby="calendar-day-visits">
      <Title order={3} size="h5" id="calendar-day-visits">
        {t('calendar.dayVisits')}
      </Title>
      {visits.isPending && <Loader size="sm" role="status" aria-label={t('app.loading')} />}
      {visits.isError && (
        <Alert color="red" variant="light">
          {t(commonErrorKey(visits.error))}
        </Alert>
      )}
      {visits.data && visits.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('calendar.noDayVisits')}
        </Text>
      )}
      {visits.data && visits.data.length > 0 && (
        <Stack
          gap={4}
          component="ul"
          className={classes.rules}
          aria-label={t('calendar.dayVisits')}
        >
          {visits.data.map((visit) => (
            <Text key={visit.id} component="li" size="sm">
              <Text span fw={600}>
                {shortTime(visit.started_at)}–{shortTime(visit.ended_at)}
              </Text>{' '}
              {visit.patient.surname} {visit.patient.firstname}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The month: a tooltip per day with its number of rules, a badge on fully blocked days. */
function MonthCalendar({
  unitId,
  selected,
  onSelect,
}: {
  unitId: number;
  selected: string;
  onSelect: (date: string) => void;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(firstOfMonth(selected));
  const { year, month } = monthOf(shown);
  const counts = useRulesCount(unitId, year, month);
  const days = daySummaries(counts.data);

  return (
    <Stack gap="xs">
      <LocalizedDates>
        <DatePicker
          value={selected}
          onChange={(value) => value && onSelect(value)}
          date={shown}
          onDateChange={(date) => setShown(firstOfMonth(date))}
          // Picking a month or a year stays in the month view.
          maxLevel="year"
          ariaLabels={{
            nextMonth: t('calendar.nextMonth'),
            previousMonth: t('calendar.previousMonth'),
            nextYear: t('calendar.nextYear'),
            previousYear: t('calendar.previousYear'),
          }}
          size="md"
          fullWidth
          // Days of the months around are dimmed below contrast and belong to another month's counts.
          hideOutsideDates
          classNames={{ day: classes.day }}
          // The visible text (the day, "zablokowany") first, as WCAG 2.5.3 asks; then the rest.
          getDayAriaLabel={(date) => {
            const summary = summaryOf(days, date);
            const visible = [String(Number(date.slice(8, 10)))];
            if (summary.blocked) visible.push(t('calendar.blockedBadge'));
            return `${visible.join(' ')} (${dayOfMonthLabel(date)}, ${t('calendar.rulesCount', { count: summary.count })})`;
          }}
          renderDay={(date) => {
            const summary = summaryOf(days, date);
            return (
              <Tooltip
                label={t('calendar.rulesCount', { count: summary.count })}
                withinPortal
                openDelay={150}
              >
                <Box className={classes.dayContent} data-testid={`day-${date}`}>
                  <span>{Number(date.slice(8, 10))}</span>
                  {summary.blocked && (
                    <Badge
                      size="xs"
                      color="red"
                      variant="filled"
                      tt="none"
                      className={classes.badge}
                    >
                      {t('calendar.blockedBadge')}
                    </Badge>
                  )}
                </Box>
              </Tooltip>
            );
          }}
        />
      </LocalizedDates>
      {counts.isError && (
        <Alert color="red" variant="light">
          {t(commonErrorKey(counts.error))}
        </Alert>
      )}
    </Stack>
  );
}

/**
 * `/units/calendar/:unitId`: a unit's work hours (ADR 026; docs/product-rules.md "Work hours and
 * slots").
 */
export function CalendarPage() {
  const { t } = useTranslation();
  const params = useParams();
  const unitId = Number(params.unitId);
  const valid = Number.isInteger(unitId) && unitId > 0 && unitId <= 2 ** 31 - 1;
  const unit = useUnit(valid ? unitId : 0);
  const [selected, setSelected] = useState(() => warsawToday());

  if (!valid) {
    return (
      <Alert color="red" variant="light">
        {t('common.notFound')}
      </Alert>
    );
  }
  return (
    <>
      <PageHeader title={t('calendar.title', { name: unit.data?.name ?? '…' })} />
      {unit.isError && (
        <Alert color="red" variant="light" mb="md">
          {t(commonErrorKey(unit.error))}
        </Alert>
      )}
      {!unit.isError && (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <MonthCalendar unitId={unitId} selected={selected} onSelect={setSelected} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <DayPanel key={selected} unitId={unitId} date={selected} />
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
