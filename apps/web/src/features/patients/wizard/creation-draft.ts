import { useCallback, useSyncExternalStore } from 'react';
import { sessionStore } from '../../../lib/session';
import { initialCreateState, wizardReducer } from './wizard-state';
import type { WizardAction, WizardState } from './wizard-state';

/**
 * The registration in progress. It outlives the wizard screen, so that a doctor who looks at
 * another screen comes back to what was typed (spec §4: each step's data is kept), and it is
 * reset after a successful registration. It lives in memory only, belongs to one signed-in user
 * and is forgotten on logout.
 */
interface Draft {
  ownerId: number;
  state: WizardState;
}

interface Owner {
  id: number;
  unit_id: number | null;
  doctor_id: number | null;
}

let draft: Draft | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

sessionStore.subscribe(() => {
  if (draft && sessionStore.get()?.user.id !== draft.ownerId) {
    draft = null;
    emit();
  }
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The owner's draft, started on first use (a doctor starts in the own unit, as the doctor). */
function draftOf(owner: Owner): WizardState {
  if (!draft || draft.ownerId !== owner.id) {
    draft = {
      ownerId: owner.id,
      state: initialCreateState({ unit_id: owner.unit_id, doctor_id: owner.doctor_id }),
    };
  }
  return draft.state;
}

export function useCreationDraft(owner: Owner) {
  const { id, unit_id, doctor_id } = owner;
  const state = useSyncExternalStore(subscribe, () => draftOf({ id, unit_id, doctor_id }));
  const dispatch = useCallback(
    (action: WizardAction) => {
      draft = { ownerId: id, state: wizardReducer(draftOf({ id, unit_id, doctor_id }), action) };
      emit();
    },
    [id, unit_id, doctor_id],
  );
  return [state, dispatch] as const;
}

/** After a successful registration the next one starts empty. */
export function resetCreationDraft() {
  draft = null;
  emit();
}
