import { Group, Select } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { warsawDay } from '@portal/shared';
import { LocalizedDates } from './localized-dates';
import { DATE_RANGE_OPTIONS, dateRangeFor } from './date-range';
import type { DateRange, DateRangeChoice, DateRangeOption } from './date-range';

function isOption(value: string | null): value is DateRangeOption {
  return (DATE_RANGE_OPTIONS as readonly (string | null)[]).includes(value);
}

/**
 * The lists' date filter (from the beginning, yesterday, today, last 7/14/30 days, custom
 * range with a calendar limited to today). Controlled: the parent keeps the choice and gets the
 * Warsaw days it stands for as {from_date, to_date} (YYYY-MM-DD) on every change.
 */
export function DateRangeFilter({
  value,
  onChange,
  label,
}: {
  value: DateRangeChoice;
  onChange: (choice: DateRangeChoice, range: DateRange) => void;
  label?: string;
}) {
  const { t } = useTranslation();
  const emit = (choice: DateRangeChoice) => onChange(choice, dateRangeFor(choice, new Date()));

  return (
    <Group gap="sm" align="flex-end" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
      <Select
        label={label ?? t('dateRange.label')}
        data={DATE_RANGE_OPTIONS.map((option) => ({
          value: option,
          label: t(`dateRange.options.${option}`),
        }))}
        value={value.option}
        onChange={(next) => {
          if (isOption(next)) emit({ ...value, option: next });
        }}
        allowDeselect={false}
        w={{ base: '100%', xs: 220 }}
        comboboxProps={{ withinPortal: true }}
      />
      {value.option === 'custom' && (
        <LocalizedDates>
          <DatePickerInput
            type="range"
            label={t('dateRange.customLabel')}
            placeholder={t('dateRange.customPlaceholder')}
            value={value.custom}
            onChange={(days) => emit({ ...value, custom: [days[0] ?? null, days[1] ?? null] })}
            maxDate={warsawDay(new Date())}
            valueFormat="DD.MM.YYYY"
            allowSingleDateInRange
            clearable
            leftSection={<IconCalendar size={16} aria-hidden />}
            w={{ base: '100%', xs: 260 }}
            popoverProps={{ withinPortal: true }}
            clearButtonProps={{ 'aria-label': t('dateRange.clear') }}
          />
        </LocalizedDates>
      )}
    </Group>
  );
}
