import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { patients } from '../../db/schema.js';
import { prefixKey, searchCondition } from '../../lib/search-terms.js';

/**
 * The text the patients search looks in: "surname firstname surname pesel", so that "Jan
 * Kowalski", "Kowalski Jan" and parts of either or of the PESEL all match one expression, the
 * one indexed by patients_search_trgm_idx (migration 0004). Keep the two in step.
 */
export const patientSearchText = sql`${patients.surname} || ' ' || ${patients.firstname} || ' ' || ${patients.surname} || ' ' || ${patients.pesel}`;

/**
 * A patient matches a term of three letters or more anywhere in the names or PESEL (trigram
 * index); a shorter term at the start of the surname, the first name or the PESEL (prefix
 * indexes of migration 0009). Used by the list and the picker alike.
 */
export function patientSearch(term: string | undefined): SQL | undefined {
  return searchCondition(term, {
    contains: [patientSearchText],
    prefix: [prefixKey(patients.surname), prefixKey(patients.firstname), sql`${patients.pesel}`],
  });
}
