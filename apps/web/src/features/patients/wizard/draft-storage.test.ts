import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../lib/session-store';
import type { KeyValueStorage } from '../../../lib/session-store';
import { createDraftStorage, DRAFT_KEY } from './draft-storage';
import { wizardReducer } from './wizard-state';
import type { WizardState } from './wizard-state';

const admin = { id: 1, unit_id: null, doctor_id: null };
const doctor = { id: 2, unit_id: 7, doctor_id: 3 };

/** A draft as a user leaves it: name and PESEL typed, consent given, on step 2. */
function typed(state: WizardState): WizardState {
  let next = wizardReducer(state, { type: 'setPersonal', field: 'surname', value: 'Górska' });
  next = wizardReducer(next, { type: 'setPersonal', field: 'pesel', value: '44051401359' });
  next = wizardReducer(next, { type: 'setPersonal', field: 'acceptance', value: true });
  return wizardReducer(next, { type: 'goTo', step: 1 });
}

describe('registration draft storage', () => {
  it('starts an empty form, a doctor in the own unit, and stores nothing until typed', () => {
    const tab = memoryStorage();
    const drafts = createDraftStorage(tab);
    const state = drafts.read(doctor);
    expect(state.mode).toBe('create');
    expect(state.step).toBe(0);
    expect(state.personal).toMatchObject({ surname: '', pesel: '', acceptance: false });
    expect(state.personal).toMatchObject({ unit_id: 7, doctor_id: 3 });
    expect(drafts.read(doctor)).toBe(state);
    expect(tab.getItem(DRAFT_KEY)).toBeNull();
  });

  it('keeps what was typed in the tab storage, so a reload of the tab finds it', () => {
    const tab = memoryStorage();
    const drafts = createDraftStorage(tab);
    drafts.write(admin.id, typed(drafts.read(admin)));

    const reloaded = createDraftStorage(tab).read(admin);
    expect(reloaded.step).toBe(1);
    expect(reloaded.personal).toMatchObject({
      surname: 'Górska',
      pesel: '44051401359',
      acceptance: true,
    });
  });

  it('clearing empties every field, consent included, in memory and in the tab storage', () => {
    const tab = memoryStorage();
    const drafts = createDraftStorage(tab);
    drafts.write(admin.id, typed(drafts.read(admin)));
    drafts.clear();

    expect(tab.getItem(DRAFT_KEY)).toBeNull();
    const state = drafts.read(admin);
    expect(state.step).toBe(0);
    expect(state.personal).toMatchObject({ surname: '', pesel: '', acceptance: false });
    expect(createDraftStorage(tab).read(admin).personal.surname).toBe('');
  });

  it('removes a draft left in localStorage on start and never writes there', () => {
    const tab = memoryStorage();
    const legacy = memoryStorage();
    legacy.setItem(
      DRAFT_KEY,
      JSON.stringify({ ownerId: 1, state: typed(createDraftStorage(memoryStorage()).read(admin)) }),
    );
    legacy.setItem('portal.lang', 'en');

    const drafts = createDraftStorage(tab, legacy);
    expect(legacy.getItem(DRAFT_KEY)).toBeNull();
    expect(legacy.getItem('portal.lang')).toBe('en');
    expect(drafts.read(admin).personal.surname).toBe('');

    drafts.write(admin.id, typed(drafts.read(admin)));
    expect(legacy.getItem(DRAFT_KEY)).toBeNull();
    expect(tab.getItem(DRAFT_KEY)).not.toBeNull();
  });

  it("belongs to one user: logout or another user's sign-in forgets it", () => {
    const tab = memoryStorage();
    const drafts = createDraftStorage(tab);
    drafts.write(admin.id, typed(drafts.read(admin)));

    expect(drafts.keepOnly(admin.id)).toBe(false);
    expect(drafts.read(admin).personal.surname).toBe('Górska');

    expect(drafts.keepOnly(null)).toBe(true);
    expect(tab.getItem(DRAFT_KEY)).toBeNull();
    expect(drafts.read(admin).personal.surname).toBe('');

    drafts.write(admin.id, typed(drafts.read(admin)));
    expect(drafts.read(doctor).personal.surname).toBe('');
    expect(tab.getItem(DRAFT_KEY)).toBeNull();
  });

  it('ignores what is not a registration draft', () => {
    const edit = {
      ownerId: 1,
      state: { ...typed(createDraftStorage(memoryStorage()).read(admin)), mode: 'edit' },
    };
    for (const raw of ['{', '"text"', '[]', '{"ownerId":"1","state":{}}', JSON.stringify(edit)]) {
      const tab = memoryStorage();
      tab.setItem(DRAFT_KEY, raw);
      expect(createDraftStorage(tab).read(admin).personal.surname).toBe('');
    }
  });

  it('completes a draft stored by an older version with the fields added since', () => {
    const tab = memoryStorage();
    tab.setItem(
      DRAFT_KEY,
      JSON.stringify({
        ownerId: 1,
        state: { mode: 'create', step: 2, personal: { surname: 'Łukasik' } },
      }),
    );
    const state = createDraftStorage(tab).read(admin);
    expect(state.step).toBe(2);
    expect(state.personal.surname).toBe('Łukasik');
    expect(state.personal.firstname).toBe('');
    expect(state.inclusion.group_id).toBeNull();
    expect(state.medicines).toEqual([]);
    expect(state.exclusion.is_above_18).toBe(true);
  });

  it('works in memory when the storage refuses (disabled or full)', () => {
    const refusing: KeyValueStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const drafts = createDraftStorage(refusing, refusing);
    drafts.write(admin.id, typed(drafts.read(admin)));
    expect(drafts.read(admin).personal.surname).toBe('Górska');
    drafts.clear();
    expect(drafts.read(admin).personal.surname).toBe('');
  });
});
