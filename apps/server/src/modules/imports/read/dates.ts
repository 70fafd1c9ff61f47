/**
 * A date written in an XML file — HL7 TS (`YYYYMMDD[HHMM[SS]]`, a zone ignored) or ISO
 * (`YYYY-MM-DD[THH:MM[:SS]]`) — as the spreadsheet readers give dates: a Date whose UTC fields
 * hold the date and time as written. Null when it is no real date.
 */
export function dateFromText(value: string): Date | null {
  const match =
    /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?(?:\.\d+)?)?(?:[+-]\d{4})?$/.exec(value) ??
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(
      value,
    );
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
  // Refuses 2026-02-30 and 25:00 rather than rolling them over.
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month! - 1 ||
    date.getUTCDate() !== day ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute
  )
    return null;
  return date;
}
