/** Numbers as the reader's language writes them (Polish: "1 234", "12,5%"). */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL').format(value);
}

export function formatRate(rate: number, language: string): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(rate);
}

export function formatDays(days: number, language: string): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    maximumFractionDigits: 1,
  }).format(days);
}

/** "2026-03" as "marzec 2026" / "March 2026". */
export function formatMonth(month: string, language: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year ?? 1970, (number ?? 1) - 1, 1)));
}

/**
 * The recruitment target of the months shown: per unit and month times the units, or the study's
 * total spread evenly over them; null without one.
 */
export function monthlyTarget(
  target: { per_unit_month: number | null; total: number | null },
  units: number,
  months: number,
): number | null {
  if (target.per_unit_month !== null) return target.per_unit_month * Math.max(1, units);
  if (target.total !== null && months > 0) return target.total / months;
  return null;
}
