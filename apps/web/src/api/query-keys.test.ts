import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ENTITY, queryKeys } from './query-keys';

/** Every key in the cache after a write on `entity` invalidated `[entity]`, as mutations do. */
async function invalidatedBy(entity: string, keys: (readonly unknown[])[]) {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, 'cached');
  await client.invalidateQueries({ queryKey: [entity], refetchType: 'none' });
  return keys.filter((key) => client.getQueryState(key)?.isInvalidated);
}

describe('query keys', () => {
  it('let a write on units reach the units list and every unit picker', async () => {
    const list = queryKeys.list(ENTITY.units, { page: 1 });
    const options = queryKeys.unitOptions();
    const doctors = queryKeys.doctorOptions(null);
    expect(await invalidatedBy(ENTITY.units, [list, options, doctors])).toEqual([list, options]);
  });

  it('let a write on doctors reach every doctor picker, of all units or one', async () => {
    const all = queryKeys.doctorOptions(null);
    const ofUnit = queryKeys.doctorOptions(3);
    const detail = queryKeys.doctor(7);
    expect(await invalidatedBy(ENTITY.doctors, [all, ofUnit, detail])).toEqual([
      all,
      ofUnit,
      detail,
    ]);
  });

  it('let a write on patients reach the list, pickers, card and its tabs', async () => {
    const keys = [
      queryKeys.list(ENTITY.patients, { offset: 0 }),
      queryKeys.patientOptions('kowal', []),
      queryKeys.patientOptions('', ['5']),
      queryKeys.patient(5),
      queryKeys.patientNotes(5),
      queryKeys.patientFiles(5),
      queryKeys.patientMessages(9),
      queryKeys.patientVisits(5),
      queryKeys.patientVisitWindow(5),
    ];
    expect(await invalidatedBy(ENTITY.patients, keys)).toEqual(keys);
  });

  it('keep the study configuration out of other entities’ writes', async () => {
    const lookups = [
      queryKeys.criteriaGroups(),
      queryKeys.exclusionCriteria(),
      queryKeys.medicines(),
    ];
    expect(await invalidatedBy(ENTITY.patients, lookups)).toEqual([]);
    expect(await invalidatedBy(ENTITY.lookups, lookups)).toEqual(lookups);
  });

  it('let a booking, which invalidates patients and visits, reach the visits tab and the slots', async () => {
    const slots = queryKeys.unitSlots(2, '2026-12-01');
    const visits = queryKeys.patientVisits(5);
    expect(await invalidatedBy(ENTITY.visits, [slots, visits])).toEqual([slots]);
    expect(await invalidatedBy(ENTITY.patients, [slots, visits])).toEqual([visits]);
  });
});
