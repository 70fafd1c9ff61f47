import '@mantine/dates/styles.layer.css';
import { TimePicker } from '@mantine/dates';
import type { TimePickerProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

/**
 * A time of day as the portal writes it, 24-hour "HH:MM", with an empty field showing "--:--"
 * whatever the browser's language (ADR 039): the native `<input type="time">` (Mantine's
 * TimeInput) follows the browser's locale, not the page's, and showed "--:-- --" with AM/PM in
 * an English Chromium. The hours and minutes fields are named after the label.
 */
export function TimeField({ label, ...props }: TimePickerProps & { label: string }) {
  const { t } = useTranslation();
  return (
    <TimePicker
      format="24h"
      label={label}
      hoursInputLabel={t('time.hoursOf', { label })}
      minutesInputLabel={t('time.minutesOf', { label })}
      {...props}
    />
  );
}
