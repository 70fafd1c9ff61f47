import { describe, expect, it } from 'vitest';
import { FAKE_STEPS, FakeTrackingProvider } from './fake-provider.js';
import type { TrackingEvent } from '../../lib/tracking-provider.js';

const NOW = new Date('2026-11-27T09:00:00.000Z');
const signal = new AbortController().signal;
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

/** The fake with its clock fixed at NOW (ADR 031: it never dates an event after now). */
const fake = () => new FakeTrackingProvider({ now: () => NOW });

describe('FakeTrackingProvider', () => {
  it('dates a new shipment first event now', async () => {
    const answer = await fake().track({ trackingCode: 'RR1PL', known: [] }, signal);
    expect(answer.events).toEqual([
      { status: FAKE_STEPS[0]!.status, place: FAKE_STEPS[0]!.place, occurredAt: NOW },
    ]);
    expect(answer.delivered).toBe(false);
  });

  it('walks every step to delivery with a fixed clock and never dates an event after now', async () => {
    const provider = fake();
    let known: TrackingEvent[] = [];
    for (const [index, step] of FAKE_STEPS.entries()) {
      const answer = await provider.track({ trackingCode: 'RR2PL', known }, signal);
      expect(answer.events).toHaveLength(index + 1);
      expect(answer.events.at(-1)!.status).toBe(step.status);
      expect(answer.events.every((event) => event.occurredAt.getTime() <= NOW.getTime())).toBe(
        true,
      );
      expect(answer.delivered).toBe(index === FAKE_STEPS.length - 1);
      known = answer.events;
    }
  });

  it('dates the next step now, after a known event of an hour ago', async () => {
    const known = [{ status: FAKE_STEPS[0]!.status, place: null, occurredAt: minutes(-60) }];
    const answer = await fake().track({ trackingCode: 'RR3PL', known }, signal);
    expect(answer.events.at(-1)).toMatchObject({
      status: FAKE_STEPS[1]!.status,
      occurredAt: NOW,
    });
  });

  it('invents nothing while a known event is dated after now (it used to add a minute to it)', async () => {
    const known = [{ status: FAKE_STEPS[0]!.status, place: null, occurredAt: minutes(1) }];
    const answer = await fake().track({ trackingCode: 'RR4PL', known }, signal);
    expect(answer).toEqual({ events: known, delivered: false });
  });
});
