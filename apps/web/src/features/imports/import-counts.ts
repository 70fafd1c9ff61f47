import { useTranslation } from 'react-i18next';

/**
 * "pacjenci: 3, wyniki: 12": the counts an import wrote or a flush removed. Counts the screen has
 * no words for are shown under the server's own name rather than dropped.
 */
export function useCountsText() {
  const { t, i18n } = useTranslation();
  return (counts: Record<string, number>) => {
    const parts = Object.entries(counts).map(
      ([key, value]) =>
        `${t(`imports.counts.${key}`, { defaultValue: key })}: ${new Intl.NumberFormat(i18n.language).format(value)}`,
    );
    return parts.length ? parts.join(', ') : t('imports.counts.none');
  };
}
