/**
 * The server names the fields of a setting's `value` (`value.courier`, `value.schedule.1.day`);
 * a settings form's fields are the value's own.
 */
export function valueFieldErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [key.replace(/^value\./, ''), message]),
  );
}
