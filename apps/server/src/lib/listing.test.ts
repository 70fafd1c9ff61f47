import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { units } from '../db/schema.js';
import { containsPattern, offsetOf, orderBy, searchAny } from './listing.js';

const dialect = new PgDialect();
const render = (parts: SQL[]) => dialect.sqlToQuery(sql.join(parts, sql`, `));

describe('containsPattern', () => {
  it('wraps the term in %', () => {
    expect(containsPattern('Kowal')).toBe('%Kowal%');
  });

  it('escapes the LIKE wildcards and the escape character', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('C:\\dane')).toBe('%C:\\\\dane%');
    expect(containsPattern('%_\\')).toBe('%\\%\\_\\\\%');
  });

  it('leaves other characters alone', () => {
    expect(containsPattern("Żółć' OR 1=1 --")).toBe("%Żółć' OR 1=1 --%");
  });
});

describe('searchAny', () => {
  it('is undefined for a missing or blank term', () => {
    expect(searchAny(undefined, [units.name])).toBeUndefined();
    expect(searchAny('', [units.name])).toBeUndefined();
    expect(searchAny('   ', [units.name])).toBeUndefined();
  });

  it('matches any column without case or diacritics, with the trimmed, escaped term as a parameter', () => {
    const where = searchAny('  50%  ', [units.name, units.city]);
    const query = dialect.sqlToQuery(where!);
    expect(query.sql).toBe(
      '(portal_unaccent("units"."name") ilike portal_unaccent($1) or portal_unaccent("units"."city") ilike portal_unaccent($2))',
    );
    expect(query.params).toEqual(['%50\\%%', '%50\\%%']);
  });
});

describe('orderBy', () => {
  const columns = { id: units.id, name: units.name };

  it('adds the id as a tie-breaker in the same direction', () => {
    expect(render(orderBy(columns, 'name', 'asc', units.id)).sql).toBe(
      '"units"."name" asc, "units"."id" asc',
    );
    expect(render(orderBy(columns, 'name', 'desc', units.id)).sql).toBe(
      '"units"."name" desc, "units"."id" desc',
    );
  });

  it('does not repeat the id when sorting by it', () => {
    expect(render(orderBy(columns, 'id', 'desc', units.id)).sql).toBe('"units"."id" desc');
  });
});

describe('offsetOf', () => {
  it('turns a 1-based page into an offset', () => {
    expect(offsetOf(1, 20)).toBe(0);
    expect(offsetOf(2, 20)).toBe(20);
    expect(offsetOf(5, 100)).toBe(400);
  });
});
