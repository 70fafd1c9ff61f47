import { isApiError } from '../../lib/api';

/**
 * A write refused because the order moved on under this screen (design §3): someone else
 * decided it (`already_decided`), changed it (`conflict`), or it is no longer accepted
 * (`not_accepted`). The screen then says so and reloads the order.
 */
export function isOrderMovedOn(error: unknown): boolean {
  return isApiError(error) && error.httpStatus === 409;
}
