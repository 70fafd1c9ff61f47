import { SETTING_DEFAULTS, buildProbeCode, settingWithDefaults } from '@portal/shared';
import type { ProbeCodeFacts, ProbeConfigValue } from '@portal/shared';
import { and, eq, max, sql } from 'drizzle-orm';
import { preparedOnce } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { patientInclusions, patients, probes, settings } from '../../db/schema.js';

/**
 * The probe number (docs/product-rules.md "Probe number"): the facts of a patient a code is built
 * from, read in ONE statement (patient, inclusion group, the patient's highest probe number and the
 * saved configuration), so that the preview stays far below 5 ms.
 */

/**
 * A code as the reception and the uniqueness of new codes compare it: without letter case,
 * accents and anything but letters, digits and `-` (an old code `Łódź 1` and a scanned `LODZ1`
 * meet; a new code is its own key in lower case), served by the index `probes_code_loose_idx`
 * of migration 0021 (ADR 035).
 */
export const looseCodeKey = sql<string>`lower(regexp_replace(portal_unaccent(${probes.code}), '[^A-Za-z0-9-]+', '', 'g'))`;

/** The stored `probe_config` value (or nothing) over the default, as the settings screen shows it. */
export function probeConfigFrom(stored: unknown): ProbeConfigValue {
  return settingWithDefaults('probe_config', stored);
}

const factColumns = {
  id: patients.id,
  sex: patients.sex,
  project_number: patients.project_number,
  unit_id: patients.unit_id,
  deleted_at: patients.deleted_at,
  group_id: patientInclusions.group_id,
  last_probe_number:
    sql<number>`(select coalesce(${max(probes.probe_number)}, 0) from ${probes} where ${probes.patient_id} = ${patients.id})`.mapWith(
      Number,
    ),
  config: sql<unknown>`(select ${settings.value} from ${settings} where ${settings.key} = 'probe_config')`,
};

export type PatientCodeFacts = {
  id: number;
  sex: 'M' | 'K';
  project_number: string | null;
  unit_id: number;
  deleted_at: Date | null;
  group_id: number | null;
  last_probe_number: number;
  config: unknown;
};

/**
 * The statement: the patient by id, within the unit the caller reaches (`unit` null: every
 * unit), so that another unit's patient is simply not found.
 */
function factsQuery(db: Database) {
  return db
    .select(factColumns)
    .from(patients)
    .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
    .where(
      and(
        eq(patients.id, sql.placeholder('id')),
        sql`${patients.unit_id} = coalesce(${sql.placeholder('unit')}::integer, ${patients.unit_id})`,
      ),
    )
    .prepare('probe_code_facts');
}

/** The facts of a reachable patient (null: missing or another unit's). Prepared once per database. */
export async function readCodeFacts(
  db: Database,
  patientId: number,
  unit: number | null,
): Promise<PatientCodeFacts | null> {
  const query = preparedOnce(db, 'probe_code_facts', () => factsQuery(db));
  const [row] = await query.execute({ id: patientId, unit });
  return row ?? null;
}

/**
 * The same facts inside a creating transaction, after locking the patient row FOR NO KEY UPDATE:
 * two nurses saving a sample of the same patient at once are served one after the other. The
 * facts are read by a SECOND statement: under READ COMMITTED a statement that waited for the
 * lock keeps its older snapshot for the sub-selects, so it would miss the number the other
 * nurse's sample just took. (The lock does not block the probes' foreign key: KEY SHARE.)
 */
export async function lockCodeFacts(
  tx: Queryable,
  patientId: number,
): Promise<PatientCodeFacts | null> {
  const [locked] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.id, patientId))
    .for('no key update');
  if (!locked) return null;
  const [row] = await tx
    .select(factColumns)
    .from(patients)
    .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
    .where(eq(patients.id, patientId));
  return row ?? null;
}

/**
 * The code for a patient's next sample from the facts and the form's material and place. A
 * configuration whose every part is empty for this patient (only the project number and the
 * group, neither known) would give an empty code: the default configuration is used instead.
 */
export function codeFor(
  facts: PatientCodeFacts,
  form: Pick<ProbeCodeFacts, 'type_of_material' | 'collect_place'>,
): string {
  const code = buildProbeCode(probeConfigFrom(facts.config), factsFor(facts, form));
  return code !== '' ? code : buildProbeCode(SETTING_DEFAULTS.probe_config, factsFor(facts, form));
}

function factsFor(
  facts: PatientCodeFacts,
  form: Pick<ProbeCodeFacts, 'type_of_material' | 'collect_place'>,
): ProbeCodeFacts {
  return {
    sex: facts.sex,
    project_number: facts.project_number,
    participant_id: facts.id,
    unit_id: facts.unit_id,
    next_probe_number: facts.last_probe_number + 1,
    group_id: facts.group_id,
    type_of_material: form.type_of_material,
    collect_place: form.collect_place,
  };
}
