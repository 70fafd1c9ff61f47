import { describe, expect, it } from 'vitest';
import { unitChoices } from './account-units';

const north = { id: 1, name: 'Północ' };
const south = { id: 2, name: 'Południe' };
const closed = { id: 9, name: 'Zamknięta' };

describe("an account's unit choices", () => {
  it('list the units by text id, in the order they came', () => {
    expect(unitChoices([north, south], [])).toEqual([
      { value: '1', label: 'Północ' },
      { value: '2', label: 'Południe' },
    ]);
  });

  it("add the account's units the list lacks (deleted since), once each, after the rest", () => {
    expect(unitChoices([north, south], [south, closed])).toEqual([
      { value: '1', label: 'Północ' },
      { value: '2', label: 'Południe' },
      { value: '9', label: 'Zamknięta' },
    ]);
  });

  it("show the account's units while the list is still loading", () => {
    expect(unitChoices([], [closed])).toEqual([{ value: '9', label: 'Zamknięta' }]);
  });
});
