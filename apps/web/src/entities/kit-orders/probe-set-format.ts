import { formatDateTime } from '@portal/shared';
import type { ProbeSetStatus } from '@portal/shared';

/** What the kit-order screens and the patient card show of an order (issue 11). */
interface OrderAddress {
  street: string;
  building: string;
  postcode: string;
  city: string;
}

interface ShipmentLike {
  last_status: string | null;
  last_status_date: string | null;
}

/** "ul. Długa 5, 00-001 Warszawa": the delivery address on one line. */
export function probeSetAddress(order: OrderAddress): string {
  return [`${order.street} ${order.building}`.trim(), `${order.postcode} ${order.city}`.trim()]
    .filter((part) => part !== '')
    .join(', ');
}

/**
 * The shipment status as the lists show it (docs/product-rules.md "Records and their states"): the
 * last status with its date, "-" when no waybill has been checked yet.
 */
export function shipmentStatusText(shipment: ShipmentLike | null | undefined): string {
  if (!shipment?.last_status) return '-';
  return shipment.last_status_date
    ? `${shipment.last_status} (${formatDateTime(shipment.last_status_date)})`
    : shipment.last_status;
}

/** New orders wait for someone (blue), accepted ones go out (green), rejected ones stop (red). */
export const PROBE_SET_STATUS_COLOR: Record<ProbeSetStatus, string> = {
  0: 'blue',
  1: 'green',
  2: 'red',
};
