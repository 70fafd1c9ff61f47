import { AppError } from '../lib/errors.js';

/** A message the patient has read is history: only unread ones may be edited or deleted. */
export function assertMessageChangeable(message: { read_at: Date | null }): void {
  if (message.read_at) throw new AppError(409, 'already_read');
}
