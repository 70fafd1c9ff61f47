/** A measured value as its reader expects it: comma decimals in Polish, up to 3 digits. */
export function formatMeasured(value: number, language: string): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    maximumFractionDigits: 3,
  }).format(value);
}
