import { describe, expect, it } from 'vitest';
import { cursorTo } from './list-state';

describe('cursorTo: the key of a step from the page shown (ADR 052)', () => {
  const rows = [{ id: 90 }, { id: 85 }, { id: 80 }];

  it('steps forward after the last row and back before the first', () => {
    expect(cursorTo(6, 5, rows)).toEqual({ after: 80 });
    expect(cursorTo(4, 5, rows)).toEqual({ before: 90 });
  });

  it('goes by page number to page 1, to a far page and from an empty page', () => {
    expect(cursorTo(1, 2, rows)).toBeNull();
    expect(cursorTo(9, 5, rows)).toBeNull();
    expect(cursorTo(3, 5, rows)).toBeNull();
    expect(cursorTo(6, 5, [])).toBeNull();
  });
});
