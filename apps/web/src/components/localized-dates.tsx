// The date pickers' code, styles and calendar locales load with the first screen that shows a
// picker, never with the login route (ADR 019).
import '@mantine/dates/styles.layer.css';
import 'dayjs/locale/pl';
import { DatesProvider } from '@mantine/dates';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../i18n/i18n';

/** Polish or English month and day names, weeks from Monday, for the pickers inside. */
export function LocalizedDates({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'pl';
  return <DatesProvider settings={{ locale, firstDayOfWeek: 1 }}>{children}</DatesProvider>;
}
