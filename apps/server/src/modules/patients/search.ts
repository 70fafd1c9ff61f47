import { and, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { patients } from '../../db/schema.js';
import { prefixKey, searchCondition } from '../../lib/search-terms.js';
import { hidesIdentity, mustMask } from '../../policies/identity.js';
import type { Actor } from '../../plugins/policy.js';

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
export function patientSearch(term: string | undefined, actor: Actor): SQL | undefined {
  const indexed = searchCondition(term, {
    contains: [patientSearchText],
    prefix: [prefixKey(patients.surname), prefixKey(patients.firstname), sql`${patients.pesel}`],
  });
  const shown = peselShownTo(actor);
  if (!indexed || shown === 'whole') return indexed;
  // A caller who sees the PESEL masked (or not at all) must not learn its hidden digits by
  // searching for them (ADR 053): the index finds the candidates, and a match must then also
  // hold in the text the caller sees, names and the first six digits (or the names alone).
  const pesel = shown === 'prefix' ? [sql`left(${patients.pesel}, 6)`] : [];
  const names = sql`${patients.surname} || ' ' || ${patients.firstname} || ' ' || ${patients.surname}`;
  const visible = searchCondition(term, {
    contains: [shown === 'prefix' ? sql`${names} || ' ' || left(${patients.pesel}, 6)` : names],
    prefix: [prefixKey(patients.surname), prefixKey(patients.firstname), ...pesel],
  });
  return and(indexed, visible);
}

/**
 * How much of a PESEL the actor sees, and so may search by: whole with `patients.identity.read`,
 * none for a monitor (ADR 051), otherwise the first six digits of the mask (ADR 053).
 */
export function peselShownTo(actor: Actor): 'whole' | 'prefix' | 'none' {
  if (hidesIdentity(actor)) return 'none';
  return mustMask(actor) ? 'prefix' : 'whole';
}

/**
 * Names the PESEL's visibility in a remembered total's key (ADR 021) when it narrows a search:
 * the same term finds fewer patients for a caller who sees the PESEL masked.
 */
export function searchKeyOf(actor: Actor): string | undefined {
  const shown = peselShownTo(actor);
  return shown === 'whole' ? undefined : shown;
}
