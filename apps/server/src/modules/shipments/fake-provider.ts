import type {
  TrackingEvent,
  TrackingProvider,
  TrackingQuery,
  TrackingResult,
} from '../../lib/tracking-provider.js';

/** The way a kit travels in the fake (the post's wording, as the demo's histories): posted, sent, sorted, out for delivery, delivered. */
export const FAKE_STEPS: readonly { status: string; place: string }[] = [
  { status: 'Przyjęcie przesyłki w placówce', place: 'UP Warszawa 1' },
  { status: 'Wysłanie przesyłki z placówki', place: 'UP Warszawa 1' },
  { status: 'Przyjęcie przesyłki w sortowni', place: 'WER Warszawa' },
  { status: 'Wydanie przesyłki do doręczenia', place: 'UP Kraków 12' },
  { status: 'Doręczenie przesyłki', place: 'UP Kraków 12' },
];

export interface FakeProviderOptions {
  /** The clock of the new event (tests fix it). */
  now?: () => Date;
}

/**
 * Tests and the demo: stateless, each call moves the shipment ONE step further from what is
 * stored (`known`), so every refresh shows a change until it is delivered. The history it answers
 * is `known` plus the new step, as the real service answers the whole history.
 */
export class FakeTrackingProvider implements TrackingProvider {
  readonly name = 'fake';
  readonly #now: () => Date;

  constructor(options: FakeProviderOptions = {}) {
    this.#now = options.now ?? (() => new Date());
  }

  track(query: TrackingQuery, signal: AbortSignal): Promise<TrackingResult> {
    signal.throwIfAborted();
    const known = [...query.known];
    const step = Math.min(known.length, FAKE_STEPS.length - 1);
    const last = known.at(-1);
    if (last && known.length >= FAKE_STEPS.length) {
      return Promise.resolve({ events: known, delivered: true });
    }
    const now = this.#now();
    // A post reports what happened, never what will: the new event is dated now. A known event
    // dated after now (another clock, an earlier fake that dated ahead) leaves the shipment where
    // it is until now passes it, so the new event is never older than the known ones either; an
    // event at the same instant is ordered after it by its id (ADR 031).
    if (last && last.occurredAt.getTime() > now.getTime()) {
      return Promise.resolve({ events: known, delivered: false });
    }
    const next = FAKE_STEPS[step]!;
    const event: TrackingEvent = { status: next.status, occurredAt: now, place: next.place };
    return Promise.resolve({
      events: [...known, event],
      delivered: step === FAKE_STEPS.length - 1,
    });
  }
}
