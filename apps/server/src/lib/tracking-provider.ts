/**
 * Where a kit's shipment status comes from (docs/product-rules.md "Shipments", ADR 031). The real
 * provider asks Poczta Polska's public tracking service; the fake (tests and the demo) moves a
 * shipment one status further on each call. `TRACKING_PROVIDER` chooses: `poczta-polska` or `fake`.
 */

/** One event in a shipment's history as the provider reports it. */
export interface TrackingEvent {
  status: string;
  occurredAt: Date;
  place: string | null;
}

export interface TrackingResult {
  /** Oldest first; the last one is the shipment's current status. Empty: not yet in the system. */
  events: TrackingEvent[];
  /** The shipment reached the addressee; it is not asked about again. */
  delivered: boolean;
}

export interface TrackingQuery {
  trackingCode: string;
  /** What is stored already, oldest first (the fake moves on from it; the post ignores it). */
  known: readonly TrackingEvent[];
}

export interface TrackingProvider {
  readonly name: string;
  /**
   * The shipment's history. Throws TrackingError when the provider is down, slow past `signal`,
   * or answers something that cannot be read; the caller keeps the last known status.
   */
  track(query: TrackingQuery, signal: AbortSignal): Promise<TrackingResult>;
}

/** A provider failure worth recording on the kit (never a patient's data in the message). */
export class TrackingError extends Error {
  override name = 'TrackingError';
}
