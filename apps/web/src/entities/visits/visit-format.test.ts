import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources';
import { isPastVisit, isWeekend, ordinalKey, outsideWindow, splitVisits } from './visit-format';

// Each language's whole catalogue, both parts (ADR 019).
const pl = resources.pl.translation;
const en = resources.en.translation;

/** Reads a dotted key from a translation file and fills {{n}}, like i18next does. */
function translate(messages: unknown, { key, options }: ReturnType<typeof ordinalKey>): string {
  let node: unknown = messages;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`missing ${key}`);
  return node.replace('{{n}}', String(options.n));
}

describe('visit names', () => {
  it('names the first ten visits and numbers the later ones, in Polish and English', () => {
    const polish = [1, 2, 3, 10, 11].map((n) => translate(pl, ordinalKey(n)));
    expect(polish).toEqual([
      'Pierwsza wizyta',
      'Druga wizyta',
      'Trzecia wizyta',
      'Dziesiąta wizyta',
      'Wizyta nr 11',
    ]);
    const english = [1, 4, 10, 12].map((n) => translate(en, ordinalKey(n)));
    expect(english).toEqual(['First visit', 'Fourth visit', 'Tenth visit', 'Visit no. 12']);
    for (let n = 1; n <= 10; n += 1) {
      expect(translate(pl, ordinalKey(n))).toMatch(/ wizyta$/);
      expect(translate(en, ordinalKey(n))).toMatch(/ visit$/);
    }
  });
});

describe('past and future visits', () => {
  // 23.11.2026 10:15 in Warsaw (UTC+1 in November).
  const now = new Date('2026-11-23T09:15:00Z');
  const visit = (date: string, started_at: string, ended_at: string) => ({
    date,
    started_at,
    ended_at,
  });

  it('counts a visit as past from its end on, in Warsaw time', () => {
    expect(isPastVisit(visit('2026-11-20', '15:00:00', '15:30:00'), now)).toBe(true);
    expect(isPastVisit(visit('2026-11-23', '09:30:00', '10:00:00'), now)).toBe(true);
    expect(isPastVisit(visit('2026-11-23', '09:45:00', '10:15:00'), now)).toBe(true);
    // Under way: still upcoming.
    expect(isPastVisit(visit('2026-11-23', '10:00:00', '10:30:00'), now)).toBe(false);
    expect(isPastVisit(visit('2026-11-24', '08:00:00', '08:30:00'), now)).toBe(false);
    // Just after midnight UTC it is already the next day in Warsaw.
    const lateEvening = new Date('2026-11-23T23:30:00Z');
    expect(isPastVisit(visit('2026-11-23', '15:00:00', '15:30:00'), lateEvening)).toBe(true);
  });

  it('counts a recorded visit as past, even under way (ADR 045)', () => {
    const underWay = visit('2026-11-23', '10:00:00', '10:30:00');
    expect(isPastVisit({ ...underWay, isDone: false }, now)).toBe(false);
    expect(isPastVisit({ ...underWay, isDone: true }, now)).toBe(true);
  });

  it('splits and sorts each list in its own direction', () => {
    const visits = [
      visit('2026-11-25', '09:00:00', '09:30:00'),
      visit('2026-11-10', '09:00:00', '09:30:00'),
      visit('2026-11-24', '08:00:00', '08:30:00'),
      visit('2026-11-24', '07:00:00', '07:30:00'),
      visit('2026-11-20', '09:00:00', '09:30:00'),
    ];
    const { future, past } = splitVisits(visits, now, { future: 'asc', past: 'desc' });
    expect(future.map((v) => `${v.date} ${v.started_at}`)).toEqual([
      '2026-11-24 07:00:00',
      '2026-11-24 08:00:00',
      '2026-11-25 09:00:00',
    ]);
    expect(past.map((v) => v.date)).toEqual(['2026-11-20', '2026-11-10']);
    const flipped = splitVisits(visits, now, { future: 'desc', past: 'asc' });
    expect(flipped.future[0]?.date).toBe('2026-11-25');
    expect(flipped.past[0]?.date).toBe('2026-11-10');
  });
});

describe('booking calendar', () => {
  it('knows weekends and days outside a window', () => {
    expect(isWeekend('2026-11-28')).toBe(true);
    expect(isWeekend('2026-11-29')).toBe(true);
    expect(isWeekend('2026-11-30')).toBe(false);
    const window = { from: '2026-12-01', to: '2026-12-07' };
    expect(outsideWindow('2026-11-30', window)).toBe(true);
    expect(outsideWindow('2026-12-01', window)).toBe(false);
    expect(outsideWindow('2026-12-07', window)).toBe(false);
    expect(outsideWindow('2026-12-08', window)).toBe(true);
    expect(outsideWindow('2026-12-08', null)).toBe(false);
  });
});
