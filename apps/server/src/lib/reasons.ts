import type { ChangeReason } from '@portal/shared';
import { markAuditReason } from '../db/client.js';
import type { Transaction } from '../db/client.js';
import { AppError } from './errors.js';

/** A change of entered clinical data without a reason (ADR 048). */
export const reasonRequired = () => new AppError(422, 'reason_required');

/**
 * The reason rule of one write, inside its transaction and after the record is locked for it
 * (so `entered` is what is stored now): a record that holds entered clinical data changes only
 * with a reason; a first entry needs none. A reason sent anyway is written as well.
 */
export async function applyReason(
  tx: Transaction,
  entered: boolean,
  reason: ChangeReason | undefined,
): Promise<void> {
  if (!reason) {
    if (entered) throw reasonRequired();
    return;
  }
  await markAuditReason(tx, reason);
}
