import type { KeyValueStorage } from '../../../lib/session-store';
import { initialCreateState } from './wizard-state';
import type { WizardState } from './wizard-state';

/**
 * The registration draft in the tab's sessionStorage: it survives a reload and a visit to another
 * screen, and is gone with the tab, so that no patient's data is left on a shared computer. Free
 * of React and of `window`, so that it can be unit-tested with an in-memory storage.
 */
export const DRAFT_KEY = 'portal.patientDraft';

/** The signed-in user the draft belongs to; a doctor starts in the own unit, as the doctor. */
export interface DraftOwner {
  id: number;
  unit_id: number | null;
  doctor_id: number | null;
}

interface Draft {
  ownerId: number;
  state: WizardState;
}

export interface DraftStorage {
  /** The owner's draft, or an empty form; the same object until the next write or clear. */
  read: (owner: DraftOwner) => WizardState;
  write: (ownerId: number, state: WizardState) => void;
  /** Forgets the draft: the next read starts an empty form. */
  clear: () => void;
  /** Forgets a draft of anyone but `userId` (null: nobody is signed in); true if one was. */
  keepOnly: (userId: number | null) => boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored draft, completed with today's defaults for fields an older version did not keep. */
function parse(raw: string | null): Draft | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.ownerId !== 'number' || !isRecord(value.state)) return null;
  // Written by write() below from a WizardState; the spreads fill in what a change added since.
  const stored = value.state as Partial<WizardState>;
  if (stored.mode !== 'create') return null;
  const empty = initialCreateState();
  return {
    ownerId: value.ownerId,
    state: {
      ...empty,
      ...stored,
      personal: { ...empty.personal, ...stored.personal },
      inclusion: { ...empty.inclusion, ...stored.inclusion },
      exclusion: { ...empty.exclusion, ...stored.exclusion },
    },
  };
}

/**
 * `tab` is the tab's sessionStorage; `legacy` (localStorage) is only ever cleaned: a draft found
 * there is removed at start.
 */
export function createDraftStorage(tab: KeyValueStorage, legacy?: KeyValueStorage): DraftStorage {
  const attempt = (action: () => void) => {
    try {
      action();
    } catch {
      // A full or disabled storage: the draft then lives in memory, until the page is left.
    }
  };
  attempt(() => legacy?.removeItem(DRAFT_KEY));
  let current: Draft | null = null;
  attempt(() => {
    current = parse(tab.getItem(DRAFT_KEY));
  });

  function clear() {
    current = null;
    attempt(() => tab.removeItem(DRAFT_KEY));
  }

  return {
    read(owner) {
      if (current && current.ownerId !== owner.id) clear();
      if (!current) {
        // Not stored until something is typed: an empty form is not worth keeping.
        current = {
          ownerId: owner.id,
          state: initialCreateState({ unit_id: owner.unit_id, doctor_id: owner.doctor_id }),
        };
      }
      return current.state;
    },
    write(ownerId, state) {
      const draft: Draft = { ownerId, state };
      current = draft;
      attempt(() => tab.setItem(DRAFT_KEY, JSON.stringify(draft)));
    },
    clear,
    keepOnly(userId) {
      if (!current || current.ownerId === userId) return false;
      clear();
      return true;
    },
  };
}
