import { Group, Radio, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { calendarRuleBody } from '@portal/shared';
import type { CalendarRule, CalendarRuleBody, CalendarRuleType } from '@portal/shared';
import { FormModal } from '../../components/form-modal';
import { TimeField } from '../../components/time-field';
import { isApiError } from '../../lib/api';
import { api } from '../../lib/api-client';
import type { CalendarRuleList } from '@portal/shared';
import { notifyError, notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { askAboutBookedVisits } from './booked-visits-question';
import { bookedVisitsOf, useSaveRule } from './calendar-api';
import { shortTime } from '../../lib/format';

interface RuleFormValues extends Record<string, unknown> {
  unit_id: number;
  date: string;
  started_at: string;
  ended_at: string;
  type: CalendarRuleType;
  is_global: boolean;
}

/**
 * Adds a rule on the chosen day, or edits one (a global rule keeps the date it was made on: only
 * its weekday matters). Validated with the shared schema, so an end before the start says the
 * fixed words before anything is sent; the server's 422 goes under the fields, its 409
 * `exist_rule` says that the same rule exists.
 */
export function RuleModal({
  unitId,
  date,
  weekday,
  rule,
  onClose,
}: {
  unitId: number;
  date: string;
  /** The chosen day's weekday name, for the "every such weekday" switch. */
  weekday: string;
  rule: CalendarRule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveRule(unitId);
  const [version, setVersion] = useState(rule?.version);
  const form = useZodForm<RuleFormValues, typeof calendarRuleBody>(calendarRuleBody, {
    unit_id: unitId,
    date: rule?.date ?? date,
    started_at: rule ? shortTime(rule.started_at) : '',
    ended_at: rule ? shortTime(rule.ended_at) : '',
    type: rule?.type ?? 'enabled',
    is_global: rule?.is_global ?? false,
  });

  // A stale version: the rule as stored now is among its date's rules.
  const reload = async () => {
    if (!rule) return null;
    const answer = await api.request<CalendarRuleList>('/units/calendar/get_by_filters', {
      query: { unit_id: unitId, date: rule.date },
    });
    return answer.data.find((stored) => stored.id === rule.id) ?? null;
  };

  const send = (body: CalendarRuleBody) =>
    save.mutate(
      rule && version !== undefined ? { id: rule.id, body, version } : { id: null, body },
      {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (error) => {
          // Hours with booked visits: listed, and written only once confirmed (ADR 041).
          const visits = bookedVisitsOf(error);
          if (visits) {
            askAboutBookedVisits(visits, () => send({ ...body, confirm_booked_visits: true }));
            return;
          }
          if (isApiError(error) && error.status === 'exist_rule') {
            notifyError(t('calendar.existRule'));
            return;
          }
          handleSaveError(error, { setServerErrors: form.setServerErrors, reload, setVersion, t });
        },
      },
    );
  const submit = form.onSubmit((body) => send(body));

  return (
    <FormModal
      opened
      title={rule ? t('calendar.editRule') : t('calendar.addRule')}
      onClose={onClose}
      onSubmit={submit}
      saving={save.isPending}
    >
      <Group grow align="flex-start" gap="sm">
        <TimeField
          label={t('calendar.from')}
          required
          hoursInputProps={{ 'data-autofocus': true }}
          {...form.getInputProps('started_at')}
        />
        <TimeField label={t('calendar.to')} required {...form.getInputProps('ended_at')} />
      </Group>
      <Radio.Group
        label={t('calendar.operation')}
        value={form.values.type}
        onChange={(value) => form.setFieldValue('type', value)}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="enabled" label={t('calendar.unblockHours')} />
          <Radio value="disabled" label={t('calendar.blockHours')} />
        </Stack>
      </Radio.Group>
      <Switch
        label={t('calendar.applyToWeekdays')}
        description={t('calendar.applyToWeekdaysHint', { weekday })}
        checked={form.values.is_global}
        onChange={(event) => form.setFieldValue('is_global', event.currentTarget.checked)}
      />
      {form.errors.date && (
        <Text size="sm" c="red" role="alert">
          {form.errors.date}
        </Text>
      )}
    </FormModal>
  );
}
