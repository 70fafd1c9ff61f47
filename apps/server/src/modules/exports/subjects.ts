import { sql } from 'drizzle-orm';

/**
 * The study subject id (`S-{unit}-{n}`, studySubjectId in packages/shared, ADR 054) in SQL, of
 * the `study_subjects` row joined as `s`. Every patient has one (migration 0030's trigger).
 */
export const subjectIdSql = sql.raw(`('S-' || s.unit_id || '-' || s.n)`);
