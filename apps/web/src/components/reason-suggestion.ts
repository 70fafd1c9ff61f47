import type { ReasonCode } from '@portal/shared';

/**
 * The reason the screen suggests: a screen opened from a monitor's query to correct the data
 * carries `?query=<id>` in its address (entities/monitoring, ADR 051), and the change then
 * answers that query. The user may still pick another reason.
 */
export function suggestedReason(search = window.location.search): ReasonCode | null {
  return new URLSearchParams(search).has('query') ? 'query_response' : null;
}
