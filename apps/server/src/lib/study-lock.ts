import { eq } from 'drizzle-orm';
import { studyLockState } from '@portal/shared';
import type { StudyLockState } from '@portal/shared';
import type { Queryable } from '../db/client.js';
import { settings } from '../db/schema.js';
import { conflict } from './errors.js';

/** The setting that holds the study lock (ADR 048); other modules read it by this name. */
export const STUDY_LOCK_SETTING = 'study_lock';

const UNLOCKED: StudyLockState = { locked: false, locked_at: null, by: null };

/** The study lock as stored; unlocked while never set. */
export async function readStudyLock(db: Queryable): Promise<StudyLockState> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, STUDY_LOCK_SETTING));
  const parsed = studyLockState.safeParse(row?.value);
  return parsed.success ? parsed.data : UNLOCKED;
}

/** The status word of a write refused while the study is locked. */
export const STUDY_LOCKED = 'study_locked';
export const studyLocked = () => conflict(STUDY_LOCKED);

/** Background writers (HL7, imports, jobs) ask this before writing. */
export async function isStudyLocked(db: Queryable): Promise<boolean> {
  return (await readStudyLock(db)).locked;
}
