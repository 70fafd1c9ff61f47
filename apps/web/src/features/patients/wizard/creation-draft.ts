import { useCallback, useSyncExternalStore } from 'react';
import { sessionStore } from '../../../lib/session';
import { memoryStorage } from '../../../lib/session-store';
import type { KeyValueStorage } from '../../../lib/session-store';
import { createDraftStorage, DRAFT_KEY } from './draft-storage';
import type { DraftOwner } from './draft-storage';
import { wizardReducer } from './wizard-state';
import type { WizardAction } from './wizard-state';

/**
 * The registration in progress. It outlives the wizard screen and a reload, so that a doctor who
 * looks at another screen comes back to what was typed (docs/product-rules.md "Patient wizard":
 * each step's data is kept), but only while the browser tab lives (sessionStorage). It belongs to
 * one signed-in user, is forgotten on logout, after a successful registration and on "Wyczyść
 * formularz".
 */
function browserStorage(name: 'sessionStorage' | 'localStorage'): KeyValueStorage | undefined {
  try {
    const storage = window[name];
    storage.getItem(DRAFT_KEY);
    return storage;
  } catch {
    // Storage can be disabled by policy.
    return undefined;
  }
}

const drafts = createDraftStorage(
  browserStorage('sessionStorage') ?? memoryStorage(),
  browserStorage('localStorage'),
);
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

drafts.keepOnly(sessionStore.get()?.user.id ?? null);
sessionStore.subscribe(() => {
  if (drafts.keepOnly(sessionStore.get()?.user.id ?? null)) emit();
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useCreationDraft(owner: DraftOwner) {
  const { id, unit_id, doctor_id } = owner;
  const state = useSyncExternalStore(subscribe, () => drafts.read({ id, unit_id, doctor_id }));
  const dispatch = useCallback(
    (action: WizardAction) => {
      drafts.write(id, wizardReducer(drafts.read({ id, unit_id, doctor_id }), action));
      emit();
    },
    [id, unit_id, doctor_id],
  );
  return [state, dispatch] as const;
}

/** After a successful registration, and on "Wyczyść formularz": the next form starts empty. */
export function resetCreationDraft() {
  drafts.clear();
  emit();
}
