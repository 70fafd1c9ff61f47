import type { TrackingEvent, TrackingProvider, TrackingQuery, TrackingResult } from './provider.js';

/** The way a kit travels in the fake: posted, sorted, carried, out for delivery, delivered. */
export const FAKE_STEPS: readonly { status: string; place: string }[] = [
  { status: 'Nadanie', place: 'UP Warszawa 1' },
  { status: 'Wysłanie z placówki', place: 'WER Warszawa' },
  { status: 'Przybycie do placówki', place: 'WER Kraków' },
  { status: 'Wydanie do doręczenia', place: 'UP Kraków 12' },
  { status: 'Doręczenie', place: 'UP Kraków 12' },
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
    const next = FAKE_STEPS[step]!;
    // Strictly after the last known event, so the new one is always the newest.
    const at = Math.max(this.#now().getTime(), (last?.occurredAt.getTime() ?? 0) + 60_000);
    const event: TrackingEvent = {
      status: next.status,
      occurredAt: new Date(at),
      place: next.place,
    };
    return Promise.resolve({
      events: [...known, event],
      delivered: step === FAKE_STEPS.length - 1,
    });
  }
}
