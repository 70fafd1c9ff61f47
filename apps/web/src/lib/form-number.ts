/**
 * A number input's value as the API takes it: a JSON number, never a string (the server refuses
 * "80" like any wrong type, ADR 037). Mantine's NumberInput holds '' when emptied and text while a
 * value is half typed ("80." before the decimals): '' is nothing (null), text that reads as a
 * number becomes that number, and anything else stays text for the shared schema to report under
 * the field.
 */
export function numberFromInput(value: number | string | null | undefined): number | string | null {
  if (value === '' || value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const trimmed = value.trim().replace(',', '.');
  const parsed = Number(trimmed);
  return trimmed !== '' && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed) && Number.isFinite(parsed)
    ? parsed
    : value;
}
