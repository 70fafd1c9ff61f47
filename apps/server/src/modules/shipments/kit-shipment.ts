import type { Shipment } from '@portal/shared';
import type { probeSetKits } from '../../db/schema.js';

type KitRow = typeof probeSetKits.$inferSelect;

/** A kit's shipment: null until a waybill is saved. */
export function shipmentOf(
  kit: Pick<KitRow, 'tracking_code' | 'last_status' | 'last_status_date'>,
): Shipment | null {
  if (!kit.tracking_code) return null;
  return {
    tracking_code: kit.tracking_code,
    last_status: kit.last_status,
    last_status_date: kit.last_status_date?.toISOString() ?? null,
  };
}
