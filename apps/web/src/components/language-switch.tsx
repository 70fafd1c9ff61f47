import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage, isLanguage, LANGUAGES } from '../i18n/i18n';

/** PL/EN; the choice is remembered in localStorage ('portal.lang') by the i18n setup. */
export function LanguageSwitch({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  const value = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'pl';
  return (
    <SegmentedControl
      size={size}
      aria-label={t('common.language')}
      value={value}
      onChange={(next) => {
        if (isLanguage(next)) void changeLanguage(next);
      }}
      data={LANGUAGES.map((language) => ({ value: language, label: language.toUpperCase() }))}
    />
  );
}
