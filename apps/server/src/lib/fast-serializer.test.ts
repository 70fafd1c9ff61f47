import { patientList } from '@portal/shared';
import fc from 'fast-check';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { fastOkSerializer } from './fast-serializer.js';

/**
 * The patients list's answer written by fast-json-stringify (ADR 057) is byte for byte what zod's
 * encode and JSON.stringify wrote: any text (quotes, backslashes, control characters, Polish
 * letters, emoji), any number, nulls where the schema allows them.
 */

const route = { method: 'GET', url: '/api/patients', schema: patientList };
const before = serializerCompiler({ ...route, httpStatus: '200' });
const now = fastOkSerializer({ ...route, httpStatus: '200' });

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom(
    '',
    'Żółć',
    'O"Brien',
    'a\\b',
    'line\nbreak\ttab\u0007',
    '</script>',
    '😀',
    'lone \ud800 half',
  ),
);
const nullable = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
const int = fc.integer({ min: -2_147_483_648, max: 2_147_483_647 });
const day = fc.constantFrom('2026-11-27', '1999-01-01');
const item = fc.record({
  id: int,
  firstname: text,
  surname: text,
  pesel: text,
  phone_number: text,
  email: nullable(text),
  address_street: nullable(text),
  address_building: nullable(text),
  address_apartment: nullable(text),
  address_postcode: nullable(text),
  address_city: nullable(text),
  group: nullable(fc.record({ id: int, nr: int, name: text })),
  subgroup: nullable(fc.record({ id: int, name: text })),
  medicines: fc.array(
    fc.record({
      id: int,
      name: text,
      dose: nullable(fc.double({ noNaN: true, noDefaultInfinity: true })),
    }),
    { maxLength: 4 },
  ),
  doctor: fc.record({ id: int, firstname: text, surname: text }),
  unit_id: int,
  is_finished: fc.constantFrom(0 as const, 1 as const),
  past_visit_date: nullable(day),
  next_visit_date: nullable(day),
  deleted_at: nullable(fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
  abilities: fc.record({
    edit: fc.boolean(),
    delete: fc.boolean(),
    restore: fc.boolean(),
    book: fc.boolean(),
    verify: fc.boolean(),
  }),
});
const answer = fc.record({
  data: fc.array(item, { maxLength: 25 }),
  total_count: fc.nat(),
  total_kind: fc.constantFrom('exact' as const, 'estimate' as const, 'at_least' as const),
});

describe('the patients list written by fast-json-stringify', () => {
  it('writes the same bytes as zod and JSON.stringify for any answer', () => {
    fc.assert(
      fc.property(answer, (value) => {
        expect(now(value)).toBe(before(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes only the fields the schema names, as zod did', () => {
    const row = fc.sample(item, { numRuns: 1, seed: 7 })[0]!;
    const value = {
      data: [{ ...row, password_hash: 'secret', notes: '<p>x</p>' }],
      total_count: 1,
      total_kind: 'exact',
      extra: true,
    };
    expect(now(value)).toBe(before(value));
    expect(now(value)).not.toContain('secret');
  });

  it('leaves every other status to zod', () => {
    const refused = fastOkSerializer({ ...route, httpStatus: '403' });
    expect(refused).not.toBe(now);
    expect(() => refused({ data: 'not a list' })).toThrow();
  });
});
