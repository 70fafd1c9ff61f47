import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daySlots,
  indexRules,
  isSlotBookable,
  isWholeDayBlock,
  lastBookableDay,
  monthSlots,
  slotRefusal,
  warsawTimeExists,
} from './slots.js';
import type { Slot, SlotRule, SlotSettings } from './slots.js';
import { addDays, warsawDayStart } from './time.js';

const DEFAULTS: SlotSettings = {
  visit_start_hour: 8,
  visit_end_hour: 16,
  meeting_length_minutes: 30,
};
/** A Sunday long before every example day: nothing is "today" or "past" by accident. */
const EARLY = new Date('2026-01-04T12:00:00Z');

const rule = (
  date: string,
  started_at: string,
  ended_at: string,
  type: 'enabled' | 'disabled',
  is_global = false,
): SlotRule => ({ date, started_at, ended_at, type, is_global });

const starts = (slots: Slot[]) => slots.map((s) => s.started_at);

/** 08:00, 08:30 … up to (not including) `to`, every `step` minutes. */
function grid(from: string, to: string, step = 30): string[] {
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const out: string[] = [];
  for (let m = minutes(from); m < minutes(to); m += step)
    out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  return out;
}

/** Every minute of the day as HH:MM. */
const CLOCK = grid('00:00', '24:00', 1);

// 2026-12-07 is a Monday; 2026-12-12/13 the weekend after it.
const MONDAY = '2026-12-07';

describe('daySlots: examples of docs/product-rules.md "Slot grid"', () => {
  it('offers a weekday the configured hours on the grid, each slot one meeting long', () => {
    const day = daySlots(MONDAY, DEFAULTS, [], EARLY);
    expect(day.closed).toBeNull();
    expect(day.open).toEqual([{ started_at: '08:00', ended_at: '16:00' }]);
    expect(starts(day.slots)).toEqual(grid('08:00', '16:00'));
    expect(day.slots[0]).toEqual({ started_at: '08:00', ended_at: '08:30' });
    expect(day.slots.at(-1)).toEqual({ started_at: '15:30', ended_at: '16:00' });
  });

  it('closes weekends, even where a rule unblocks hours', () => {
    const rules = [rule('2026-12-12', '09:00', '12:00', 'enabled')];
    const saturday = daySlots('2026-12-12', DEFAULTS, rules, EARLY);
    expect(saturday.closed).toBe('weekend');
    expect(saturday.open).toEqual([{ started_at: '09:00', ended_at: '12:00' }]);
    expect(saturday.slots).toEqual([]);
    expect(daySlots('2026-12-13', DEFAULTS, [], EARLY)).toMatchObject({ open: [], slots: [] });
  });

  it('closes past days, counted in Warsaw rather than UTC', () => {
    // 22:30 UTC on 7 December is 23:30 in Warsaw: still Monday, every slot already past.
    const lateMonday = new Date('2026-12-07T22:30:00Z');
    expect(daySlots(MONDAY, DEFAULTS, [], lateMonday)).toMatchObject({ closed: null, slots: [] });
    // 23:30 UTC is already Tuesday in Warsaw: Monday is a past day.
    const tuesday = new Date('2026-12-07T23:30:00Z');
    expect(daySlots(MONDAY, DEFAULTS, [], tuesday)).toMatchObject({ closed: 'past', slots: [] });
    expect(starts(daySlots('2026-12-08', DEFAULTS, [], tuesday).slots)).toEqual(
      grid('08:00', '16:00'),
    );
  });

  it('starts today at the first slot at or after the Warsaw clock, rounded up to the grid', () => {
    // December: Warsaw is UTC+1.
    expect(starts(daySlots(MONDAY, DEFAULTS, [], new Date('2026-12-07T09:10:00Z')).slots)[0]).toBe(
      '10:30',
    );
    expect(starts(daySlots(MONDAY, DEFAULTS, [], new Date('2026-12-07T09:00:00Z')).slots)[0]).toBe(
      '10:00',
    );
    expect(
      starts(daySlots(MONDAY, DEFAULTS, [], new Date('2026-12-07T09:00:00.001Z')).slots)[0],
    ).toBe('10:30');
    expect(starts(daySlots(MONDAY, DEFAULTS, [], new Date('2026-12-07T06:00:00Z')).slots)[0]).toBe(
      '08:00',
    );
  });

  it('applies a global rule to every date of its weekday, and only those', () => {
    // Dated on an earlier Monday, it shapes this Monday, not the Tuesday after it.
    const rules = [
      rule('2026-11-02', '12:00', '13:00', 'disabled', true),
      rule('2026-11-02', '16:00', '17:00', 'enabled', true),
    ];
    expect(daySlots(MONDAY, DEFAULTS, rules, EARLY).open).toEqual([
      { started_at: '08:00', ended_at: '12:00' },
      { started_at: '13:00', ended_at: '17:00' },
    ]);
    expect(daySlots('2026-12-08', DEFAULTS, rules, EARLY).open).toEqual([
      { started_at: '08:00', ended_at: '16:00' },
    ]);
  });

  it("applies a date's rules after the global ones, so the date wins", () => {
    const rules = [
      rule('2026-11-02', '12:00', '14:00', 'disabled', true),
      rule(MONDAY, '12:00', '13:00', 'enabled'),
    ];
    expect(daySlots(MONDAY, DEFAULTS, rules, EARLY).open).toEqual([
      { started_at: '08:00', ended_at: '13:00' },
      { started_at: '14:00', ended_at: '16:00' },
    ]);
    // A global unblock cannot reopen what the date blocks.
    const blocked = [
      rule('2026-11-02', '06:00', '08:00', 'enabled', true),
      rule(MONDAY, '07:00', '09:00', 'disabled'),
    ];
    expect(daySlots(MONDAY, DEFAULTS, blocked, EARLY).open).toEqual([
      { started_at: '06:00', ended_at: '07:00' },
      { started_at: '09:00', ended_at: '16:00' },
    ]);
  });

  it('lets "block hours" win over "unblock hours" within one level, in any order', () => {
    const inside = [
      rule(MONDAY, '17:00', '17:30', 'disabled'),
      rule(MONDAY, '16:00', '18:00', 'enabled'),
    ];
    expect(daySlots(MONDAY, DEFAULTS, inside, EARLY).open).toEqual([
      { started_at: '08:00', ended_at: '17:00' },
      { started_at: '17:30', ended_at: '18:00' },
    ]);
    const sameGlobal = [
      rule('2026-11-02', '10:00', '11:00', 'enabled', true),
      rule('2026-11-02', '10:00', '11:00', 'disabled', true),
    ];
    expect(starts(daySlots(MONDAY, DEFAULTS, sameGlobal, EARLY).slots)).not.toContain('10:00');
  });

  it('offers a slot only when it lies wholly inside open hours', () => {
    const rules = [
      rule(MONDAY, '16:00', '16:20', 'enabled'),
      rule(MONDAY, '09:10', '09:40', 'disabled'),
    ];
    const slots = starts(daySlots(MONDAY, DEFAULTS, rules, EARLY).slots);
    expect(slots).not.toContain('09:00'); // 09:00–09:30 touches the block
    expect(slots).not.toContain('09:30');
    expect(slots).toContain('10:00');
    expect(slots.at(-1)).toBe('15:30'); // 16:00–16:30 reaches past 16:20
  });

  it('cuts the grid from midnight, not from the start hour', () => {
    const settings = { ...DEFAULTS, meeting_length_minutes: 45 };
    // 00:00, 00:45 … 07:30, 08:15: the first slot inside 08:00–16:00 starts at 08:15.
    const slots = daySlots(MONDAY, settings, [], EARLY).slots;
    expect(slots[0]).toEqual({ started_at: '08:15', ended_at: '09:00' });
    expect(slots.at(-1)).toEqual({ started_at: '15:00', ended_at: '15:45' });
  });

  it('closes the whole day with one disabled 00:00–23:59 rule; the date may reopen hours', () => {
    const block = rule(MONDAY, '00:00:00', '23:59:00', 'disabled');
    expect(isWholeDayBlock(block)).toBe(true);
    expect(isWholeDayBlock({ ...block, type: 'enabled' })).toBe(false);
    expect(isWholeDayBlock({ ...block, ended_at: '23:00:00' })).toBe(false);
    expect(daySlots(MONDAY, DEFAULTS, [block], EARLY)).toMatchObject({ open: [], slots: [] });
    // A global whole-day block on Mondays, reopened for one date by that date's rule.
    const rules = [
      rule('2026-11-02', '00:00:00', '23:59:00', 'disabled', true),
      rule(MONDAY, '10:00:00', '11:00:00', 'enabled'),
    ];
    expect(starts(daySlots(MONDAY, DEFAULTS, rules, EARLY).slots)).toEqual(['10:00', '10:30']);
    expect(daySlots('2026-12-14', DEFAULTS, rules, EARLY).slots).toEqual([]);
  });

  it('ends the usable day at 23:59, so no slot ends at 24:00', () => {
    const settings = { visit_start_hour: 22, visit_end_hour: 24, meeting_length_minutes: 30 };
    expect(daySlots(MONDAY, settings, [], EARLY).open).toEqual([
      { started_at: '22:00', ended_at: '23:59' },
    ]);
    expect(starts(daySlots(MONDAY, settings, [], EARLY).slots)).toEqual([
      '22:00',
      '22:30',
      '23:00',
    ]);
  });

  it('ignores a rule whose end is not after its start (validation refuses it earlier)', () => {
    const rules = [
      rule(MONDAY, '12:00', '11:00', 'disabled'),
      rule(MONDAY, '12:00', '12:00', 'disabled'),
    ];
    expect(starts(daySlots(MONDAY, DEFAULTS, rules, EARLY).slots)).toEqual(grid('08:00', '16:00'));
  });

  it('gives no base hours when the settings end before they start', () => {
    const settings = { ...DEFAULTS, visit_start_hour: 16, visit_end_hour: 8 };
    expect(daySlots(MONDAY, settings, [], EARLY)).toMatchObject({ open: [], slots: [] });
  });

  it('refuses a day that is not a date', () => {
    expect(() => daySlots('2026-02-30', DEFAULTS, [], EARLY)).toThrow(RangeError);
  });
});

describe('slotRefusal / isSlotBookable', () => {
  const now = new Date('2026-12-07T09:10:00Z'); // Monday 10:10 in Warsaw
  const rules = [rule('2026-12-08', '12:00', '13:00', 'disabled')];
  const check = (date: string, started_at: string, ended_at?: string) =>
    slotRefusal({ date, started_at, ended_at }, DEFAULTS, rules, now);

  it.each([
    ['2026-12-08', '12:30', undefined, 'closed'],
    ['2026-12-08', '16:00', undefined, 'closed'],
    ['2026-12-08', '07:30', undefined, 'closed'],
    ['2026-12-08', '10:15', undefined, 'off_grid'],
    ['2026-12-08', '10:00', '11:00', 'off_grid'],
    ['2026-12-08', '10:00:30', undefined, 'off_grid'],
    ['2026-12-12', '10:00', undefined, 'weekend'],
    ['2026-12-04', '10:00', undefined, 'past'],
    [MONDAY, '10:00', undefined, 'past'],
    ['2026-12-08', '25:00', undefined, 'invalid'],
    ['2026-02-30', '10:00', undefined, 'invalid'],
    ['2026-12-08', '10:00', '1000', 'invalid'],
  ])('%s %s–%s: %s', (date, start, end, reason) => {
    expect(check(date, start, end)).toBe(reason);
  });

  it('accepts open slots on the grid, HH:MM or HH:MM:SS', () => {
    expect(check(MONDAY, '10:30')).toBeNull();
    expect(check('2026-12-08', '11:30', '12:00')).toBeNull();
    expect(check('2026-12-08', '13:00:00', '13:30:00')).toBeNull();
    expect(isSlotBookable({ date: '2026-12-08', started_at: '08:00' }, DEFAULTS, rules, now)).toBe(
      true,
    );
    const index = indexRules(rules);
    expect(isSlotBookable({ date: '2026-12-08', started_at: '12:00' }, DEFAULTS, index, now)).toBe(
      false,
    );
  });
});

describe('the booking horizon (ADR 038)', () => {
  const horizon = { ...DEFAULTS, booking_horizon_days: 337 };
  // 2026-01-04 + 337 days is Monday 2026-12-07; the Tuesday after lies beyond.
  it('offers days up to today + the horizon and closes the later ones', () => {
    expect(lastBookableDay(horizon, '2026-01-04')).toBe(MONDAY);
    expect(lastBookableDay(DEFAULTS, '2026-01-04')).toBeNull();
    expect(daySlots(MONDAY, horizon, [], EARLY).slots).toHaveLength(16);
    const tuesday = daySlots(addDays(MONDAY, 1), horizon, [], EARLY);
    expect(tuesday.closed).toBe('beyond_horizon');
    expect(tuesday.slots).toEqual([]);
    expect(slotRefusal({ date: MONDAY, started_at: '08:00' }, horizon, [], EARLY)).toBeNull();
    expect(slotRefusal({ date: addDays(MONDAY, 1), started_at: '08:00' }, horizon, [], EARLY)).toBe(
      'beyond_horizon',
    );
    // No horizon given: no limit (callers that build their own settings keep working).
    expect(daySlots(addDays(MONDAY, 1), DEFAULTS, [], EARLY).closed).toBeNull();
  });
});

describe('daylight saving time in Warsaw', () => {
  it('knows which wall-clock times do not exist on the spring-forward nights', () => {
    expect(warsawTimeExists('2026-03-29', '02:30')).toBe(false);
    expect(warsawTimeExists('2026-03-29', '02:00:00')).toBe(false);
    expect(warsawTimeExists('2026-03-29', '01:59')).toBe(true);
    expect(warsawTimeExists('2026-03-29', '03:00')).toBe(true);
    expect(warsawTimeExists('2027-03-28', '02:15')).toBe(false);
    // The repeated autumn hour exists (twice); an ordinary night has 02:30.
    expect(warsawTimeExists('2026-10-25', '02:30')).toBe(true);
    expect(warsawTimeExists('2027-10-31', '02:30')).toBe(true);
    expect(warsawTimeExists('2026-03-30', '02:30')).toBe(true);
    expect(warsawTimeExists('2026-03-29', '25:00')).toBe(false);
    expect(warsawTimeExists('2026-02-30', '10:00')).toBe(false);
    expect(warsawTimeExists('2026-03-29', '23:59')).toBe(true);
  });

  it('compares "today" on the wall clock after the clocks move', () => {
    // Monday 30 March 2026, 06:10 UTC = 08:10 CEST (it would be 07:10 in winter time).
    expect(
      starts(daySlots('2026-03-30', DEFAULTS, [], new Date('2026-03-30T06:10Z')).slots)[0],
    ).toBe('08:30');
    // Friday before, 07:10 UTC = 08:10 CET.
    expect(
      starts(daySlots('2026-03-27', DEFAULTS, [], new Date('2026-03-27T07:10Z')).slots)[0],
    ).toBe('08:30');
    // Monday 26 October 2026, 07:10 UTC = 08:10 CET; Friday 23 October 06:10 UTC = 08:10 CEST.
    expect(
      starts(daySlots('2026-10-26', DEFAULTS, [], new Date('2026-10-26T07:10Z')).slots)[0],
    ).toBe('08:30');
    expect(
      starts(daySlots('2026-10-23', DEFAULTS, [], new Date('2026-10-23T06:10Z')).slots)[0],
    ).toBe('08:30');
  });

  it('during the changing nights the Sunday is closed, Monday is ahead and Friday is past', () => {
    for (const instant of [
      '2026-03-29T00:30:00Z', // 01:30 CET, before the jump
      '2026-03-29T01:30:00Z', // 03:30 CEST, after it
      '2026-10-25T00:30:00Z', // 02:30 CEST, the first 02:30
      '2026-10-25T01:30:00Z', // 02:30 CET, the second 02:30
      '2027-03-28T01:00:00Z',
      '2027-10-31T01:00:00Z',
    ]) {
      const now = new Date(instant);
      const sunday = now.toISOString().slice(0, 10);
      expect(daySlots(sunday, DEFAULTS, [], now)).toMatchObject({ closed: 'weekend', slots: [] });
      expect(daySlots(addDays(sunday, 1), DEFAULTS, [], now).slots).toHaveLength(16);
      expect(daySlots(addDays(sunday, -2), DEFAULTS, [], now).closed).toBe('past');
    }
  });

  it('applies a global Sunday rule on the short and the long Sunday by the wall clock', () => {
    const rules = [rule('2026-12-06', '01:00', '04:00', 'enabled', true)];
    // The hour 02:00–03:00 does not occur on 29 March, but the open hours are wall-clock text.
    expect(daySlots('2026-03-29', DEFAULTS, rules, EARLY)).toMatchObject({
      closed: 'weekend',
      open: [{ started_at: '01:00', ended_at: '04:00' }],
      slots: [],
    });
    expect(daySlots('2026-10-25', DEFAULTS, rules, EARLY).open).toEqual([
      { started_at: '01:00', ended_at: '04:00' },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The naive model: every minute of the day decided on its own, then cut into slots.

const sweden = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** 'YYYY-MM-DD HH:MM:SS' in Warsaw, read differently from the module (a locale's text). */
function modelNow(now: Date): { day: string; msOfDay: number } {
  const [day = '', clock = ''] = sweden.format(now).split(' ');
  const [h = 0, m = 0, s = 0] = clock.split(':').map(Number);
  return { day, msOfDay: ((h * 60 + m) * 60 + s) * 1000 + (now.getTime() % 1000) };
}

const utcWeekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay(); // 0 = Sunday
const minuteOf = (time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return h * 60 + m;
};

function modelSlots(day: string, settings: SlotSettings, rules: SlotRule[], now: Date): string[] {
  const weekday = utcWeekday(day);
  const today = modelNow(now);
  if (weekday === 0 || weekday === 6 || day < today.day) return [];
  const covers = (r: SlotRule, m: number) =>
    m >= minuteOf(r.started_at) && m < Math.min(minuteOf(r.ended_at), 1439);
  const open: boolean[] = [];
  for (let m = 0; m < 1440; m++) {
    let state = m >= settings.visit_start_hour * 60 && m < settings.visit_end_hour * 60 && m < 1439;
    const global = rules.filter(
      (r) => r.is_global && utcWeekday(r.date) === weekday && covers(r, m),
    );
    if (global.length > 0) state = !global.some((r) => r.type === 'disabled');
    const own = rules.filter((r) => !r.is_global && r.date === day && covers(r, m));
    if (own.length > 0) state = !own.some((r) => r.type === 'disabled');
    if (day === today.day && m * 60_000 < today.msOfDay) state = false;
    open.push(state && m < 1439);
  }
  const out: string[] = [];
  const length = settings.meeting_length_minutes;
  for (let start = 0; start + length <= 1439; start += length) {
    if (open.slice(start, start + length).every(Boolean)) out.push(CLOCK[start] ?? '');
  }
  return out;
}

const DST_DAYS = ['2026-03-29', '2026-10-25', '2027-03-28', '2027-10-31'];

/** Days around the four changing nights (Thursday to Wednesday) and any day of 2026–2027. */
const dayArb = fc.oneof(
  fc
    .tuple(fc.constantFrom(...DST_DAYS), fc.integer({ min: -3, max: 3 }))
    .map(([sunday, shift]) => addDays(sunday, shift)),
  fc.integer({ min: 0, max: 729 }).map((n) => addDays('2026-01-01', n)),
);

const timeArb = fc.oneof(
  fc.integer({ min: 0, max: 24 * 12 - 1 }).map((n) => n * 5),
  fc.integer({ min: 0, max: 1439 }),
  fc.constant(1439),
);
const hhmmss = (m: number) => `${CLOCK[m] ?? ''}:00`;

const rulesArb = (day: string) =>
  fc.array(
    fc
      .record({
        shift: fc.oneof(fc.constant(0), fc.integer({ min: -21, max: 21 })),
        from: timeArb,
        to: timeArb,
        type: fc.constantFrom<'enabled' | 'disabled'>('enabled', 'disabled'),
        is_global: fc.boolean(),
      })
      .map(({ shift, from, to, type, is_global }) =>
        rule(addDays(day, shift), hhmmss(from), hhmmss(to), type, is_global),
      ),
    { maxLength: 8 },
  );

const settingsArb = fc.record({
  visit_start_hour: fc.integer({ min: 0, max: 24 }),
  visit_end_hour: fc.integer({ min: 0, max: 24 }),
  meeting_length_minutes: fc.oneof(
    fc.constantFrom(10, 15, 20, 30, 45, 60, 90),
    fc.integer({ min: 5, max: 240 }),
  ),
});

/** "Now" from two days before the day to two days after it, to the millisecond. */
const nowArb = (day: string) =>
  fc
    .integer({ min: -2 * 86_400_000, max: 3 * 86_400_000 })
    .map((ms) => new Date(Date.parse(`${day}T00:00:00Z`) + ms));

/** "Now" on the day itself, within seconds after a 5-minute mark (where rounding matters). */
const nearGridArb = (day: string) =>
  fc
    .tuple(fc.integer({ min: 0, max: 287 }), fc.integer({ min: 0, max: 2_000 }))
    .map(([mark, ms]) => new Date(warsawDayStart(day).getTime() + mark * 300_000 + ms));

const caseArb = dayArb.chain((day) =>
  fc.record({
    day: fc.constant(day),
    settings: settingsArb,
    rules: rulesArb(day),
    now: fc.oneof(nowArb(day), fc.constantFrom(...DST_DAYS).chain(nowArb), nearGridArb(day)),
    probe: timeArb,
  }),
);

describe('daySlots against the minute-by-minute model', () => {
  it('offers exactly the slots the model offers', () => {
    fc.assert(
      fc.property(caseArb, ({ day, settings, rules, now }) => {
        expect(starts(daySlots(day, settings, rules, now).slots)).toEqual(
          modelSlots(day, settings, rules, now),
        );
      }),
      { numRuns: 600 },
    );
    // 600 generated days: seconds on a busy two-core machine, not the default 5.
  }, 30_000);

  it('accepts a booking exactly when the model offers that slot', () => {
    fc.assert(
      fc.property(caseArb, ({ day, settings, rules, now, probe }) => {
        const length = settings.meeting_length_minutes;
        // Half the probes on the grid, so acceptance is reached often.
        const start = probe % 2 === 0 ? probe - (probe % length) : probe;
        const startText = CLOCK[start] ?? '';
        const offered = modelSlots(day, settings, rules, now).includes(startText);
        expect(isSlotBookable({ date: day, started_at: startText }, settings, rules, now)).toBe(
          offered,
        );
      }),
      { numRuns: 600 },
    );
    // 600 generated days: seconds on a busy two-core machine, not the default 5.
  }, 30_000);

  it('gives each day of a month what daySlots gives it', () => {
    fc.assert(
      fc.property(caseArb, ({ day, settings, rules, now }) => {
        const [year = 0, month = 0] = day.split('-').map(Number);
        const month_ = monthSlots(year, month, settings, rules, now);
        expect(month_).toHaveLength(new Date(Date.UTC(year, month, 0)).getUTCDate());
        for (const entry of month_)
          expect(entry).toEqual(daySlots(entry.date, settings, rules, now));
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
