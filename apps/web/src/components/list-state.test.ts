import { describe, expect, it } from 'vitest';
import { COUNT_CAP } from '@portal/shared';
import { translator } from '../i18n/translator';
import {
  ariaSort,
  formatCount,
  formatTotal,
  initialListState,
  pageCount,
  summarizePage,
  toggleSort,
  toListQuery,
  toPaged,
} from './list-state';

/** Intl separates Polish thousands with a no-break space, so that '10 000+' never wraps. */
const nbsp = (text: string) => text.replace(/(\d) (?=\d)/g, '$1\u00a0');

describe('list state', () => {
  it('starts on page 1 of 20 rows sorted by id descending', () => {
    expect(initialListState()).toEqual({
      page: 1,
      limit: 20,
      orderBy: 'id',
      direction: 'desc',
      search: '',
    });
  });

  it('builds the query of GET /api/<entity>', () => {
    expect(toListQuery({ ...initialListState(), page: 3, search: 'abc' })).toEqual({
      limit: 20,
      page: 3,
      order_by: 'id',
      order_direction: 'desc',
      search: 'abc',
    });
    expect(toListQuery(initialListState()).search).toBeUndefined();
  });

  it('toggles the direction of the sorted column and starts others ascending', () => {
    const state = { ...initialListState(), page: 4 };
    const flipped = toggleSort(state, 'id');
    expect(flipped).toMatchObject({ orderBy: 'id', direction: 'asc', page: 1 });
    expect(toggleSort(flipped, 'id')).toMatchObject({ direction: 'desc' });
    expect(toggleSort(state, 'name')).toMatchObject({ orderBy: 'name', direction: 'asc' });
  });

  it('tells aria-sort per column', () => {
    const state = initialListState();
    expect(ariaSort(state, 'id')).toBe('descending');
    expect(ariaSort(toggleSort(state, 'id'), 'id')).toBe('ascending');
    expect(ariaSort(state, 'name')).toBe('none');
  });

  it('reads both paging styles into one shape, exact when the server does not say', () => {
    const rows = [{ id: 1 }];
    expect(toPaged({ data: rows, total: 57, total_kind: 'estimate' })).toEqual({
      data: rows,
      total: 57,
      total_kind: 'estimate',
    });
    expect(toPaged({ data: rows, total_count: 10_000, total_kind: 'at_least' })).toEqual({
      data: rows,
      total: 10_000,
      total_kind: 'at_least',
    });
    expect(toPaged({ data: rows, total_count: 3 })).toMatchObject({
      total: 3,
      total_kind: 'exact',
    });
  });

  it('counts pages and rows of an exact total', () => {
    expect(pageCount(57, 20)).toBe(3);
    expect(pageCount(0, 20)).toBe(1);
    expect(summarizePage(1, 20, 20, 57, 'exact')).toEqual({
      from: 1,
      to: 20,
      total: 57,
      kind: 'exact',
      pages: 3,
    });
    expect(summarizePage(3, 20, 17, 57, 'exact')).toEqual({
      from: 41,
      to: 57,
      total: 57,
      kind: 'exact',
      pages: 3,
    });
    expect(summarizePage(1, 20, 0, 0, 'exact')).toEqual({
      from: 0,
      to: 0,
      total: 0,
      kind: 'exact',
      pages: 1,
    });
    // A page past the end (the list shrank meanwhile) shows no rows and keeps the pages.
    expect(summarizePage(5, 20, 0, 57, 'exact')).toMatchObject({ from: 0, to: 0, pages: 3 });
  });

  it('offers the pages up to the cap of an at-least total, and no further', () => {
    expect(summarizePage(1, 20, 20, COUNT_CAP, 'at_least')).toEqual({
      from: 1,
      to: 20,
      total: 10_000,
      kind: 'at_least',
      pages: 500,
    });
    expect(summarizePage(500, 20, 20, COUNT_CAP, 'at_least')).toMatchObject({
      from: 9981,
      to: 10_000,
      pages: 500,
    });
    expect(summarizePage(2, 100, 100, COUNT_CAP, 'at_least').pages).toBe(100);
    expect(summarizePage(1, 50, 50, COUNT_CAP, 'at_least').pages).toBe(200);
  });

  it('pages an estimate by its figure, one page further while the last one is full', () => {
    expect(summarizePage(1, 20, 20, 3_800_000, 'estimate')).toEqual({
      from: 1,
      to: 20,
      total: 3_800_000,
      kind: 'estimate',
      pages: 190_000,
    });
    // The estimate was low: the last offered page is full, so the next one is offered too.
    expect(summarizePage(3, 20, 20, 45, 'estimate')).toEqual({
      from: 41,
      to: 60,
      total: 60,
      kind: 'estimate',
      pages: 4,
    });
  });

  it('knows the exact total from a short page, whatever was capped or estimated', () => {
    expect(summarizePage(3, 20, 5, 3_800_000, 'estimate')).toEqual({
      from: 41,
      to: 45,
      total: 45,
      kind: 'exact',
      pages: 3,
    });
    expect(summarizePage(2, 20, 7, COUNT_CAP, 'at_least')).toMatchObject({
      total: 27,
      kind: 'exact',
      pages: 2,
    });
    expect(summarizePage(1, 20, 0, 1_200_000, 'estimate')).toMatchObject({
      total: 0,
      kind: 'exact',
    });
  });

  it('formats totals in the user’s language for every kind', () => {
    const pl = translator('pl');
    const en = translator('en');
    expect(formatTotal(57, 'exact', 'pl', pl)).toBe('57');
    expect(formatTotal(12_345, 'exact', 'pl', pl)).toBe(nbsp('12 345'));
    expect(formatTotal(12_345, 'exact', 'en', en)).toBe('12,345');
    expect(formatTotal(COUNT_CAP, 'at_least', 'pl', pl)).toBe(nbsp('10 000+'));
    expect(formatTotal(COUNT_CAP, 'at_least', 'en', en)).toBe('10,000+');
    expect(formatTotal(3_800_000, 'estimate', 'pl', pl)).toBe(nbsp('ok. 3 800 000'));
    expect(formatTotal(3_800_000, 'estimate', 'en', en)).toBe('about 3,800,000');
    expect(formatCount(9981, 'pl')).toBe('9981');
  });

  it('says the range with formatted numbers and hints at narrowing a capped filter', () => {
    const pl = translator('pl');
    const en = translator('en');
    const range = (t: typeof pl, lang: string, page: number) => {
      const s = summarizePage(page, 20, 20, COUNT_CAP, 'at_least');
      return t('list.range', {
        from: formatCount(s.from, lang),
        to: formatCount(s.to, lang),
        total: formatTotal(s.total, s.kind, lang, t),
      });
    };
    expect(range(pl, 'pl', 500)).toBe(nbsp('9981–10 000 z 10 000+'));
    expect(range(en, 'en', 500)).toBe('9,981–10,000 of 10,000+');
    expect(pl('list.tooMany', { total: formatCount(COUNT_CAP, 'pl') })).toBe(
      nbsp('Wyników jest ponad 10 000. Zawęź wyszukiwanie lub filtry, aby zobaczyć pozostałe.'),
    );
  });
});
