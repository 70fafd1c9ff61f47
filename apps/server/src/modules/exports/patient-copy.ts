import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PatientCopy } from '@portal/shared';
import type { Database, Queryable } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { subjectIdSql } from './subjects.js';

/**
 * A patient's copy (GDPR art. 15 and 20, ADR 054): everything the database holds about one
 * patient, each record with every stored column, read in one transaction so that the sections
 * agree with each other. Columns are taken whole (`to_jsonb(row)`) rather than listed, so that a
 * column added later is in the copy without anyone remembering it; what is left out is named
 * here: a file's content (listed, not embedded) and the account's password hash.
 */

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: { r: Row }[] }).rows.map((x) => x.r);

async function section(tx: Queryable, query: SQL): Promise<Row[]> {
  return rowsOf(await tx.execute(query));
}

/**
 * Who read this patient's data (ADR 052): the read log's entries whose patients include this one,
 * oldest first, with the reader's login and role (not the other patients of a list's entry).
 */
function accessLogOf(tx: Queryable, patientId: number): Promise<Row[]> {
  return section(
    tx,
    sql`select jsonb_build_object('id', l.id, 'at', l.at, 'address', l.address, 'kind', l.kind,
          'user', jsonb_build_object('id', u.id, 'login', u.login, 'role', u.role)) as r
        from access_log l join users u on u.id = l.user_id
        where l.patient_ids @> array[${patientId}::integer]
        order by l.id`,
  );
}

export async function loadPatientCopy(db: Database, patientId: number): Promise<PatientCopy> {
  // A read, so no audit actor to name; repeatable read so that every section sees one moment.
  // eslint-disable-next-line no-restricted-syntax
  return db.transaction(
    async (tx) => {
      const [patient] = await section(
        tx,
        sql`select to_jsonb(p) || jsonb_build_object(
              'study_subject_id', ${subjectIdSql},
              'unit', jsonb_build_object('id', u.id, 'name', u.name),
              'doctor', jsonb_build_object('id', d.id, 'firstname', d.firstname, 'surname', d.surname),
              'exclusion_criterion', ec.name) as r
            from patients p
            join units u on u.id = p.unit_id
            join doctors d on d.id = p.doctor_id
            left join study_subjects s on s.patient_id = p.id
            left join exclusion_criteria ec on ec.id = p.exclusion_criteria_id
            where p.id = ${patientId}`,
      );
      if (!patient) throw notFound();
      const [account] = await section(
        tx,
        sql`select to_jsonb(u) - 'password_hash' - 'login_skeleton' as r
            from users u join patients p on p.user_id = u.id where p.id = ${patientId}`,
      );
      const [inclusion] = await section(
        tx,
        sql`select to_jsonb(i) || jsonb_build_object('group', g.name, 'subgroup', sg.name) as r
            from patient_inclusions i
            join inclusion_criteria_groups g on g.id = i.group_id
            left join inclusion_criteria_subgroups sg on sg.id = i.subgroup_id
            where i.patient_id = ${patientId}`,
      );
      const medicines = await section(
        tx,
        sql`select to_jsonb(pm) || jsonb_build_object('name', m.name, 'inn', m.inn) as r
            from patient_medicines pm join medicines m on m.id = pm.medicine_id
            where pm.patient_id = ${patientId} order by pm.medicine_id`,
      );
      const additional = await section(
        tx,
        sql`select to_jsonb(a) as r from patient_additional_medicines a
            where a.patient_id = ${patientId} order by 1`,
      );
      const visits = await section(
        tx,
        sql`select to_jsonb(v) as r from visits v where v.patient_id = ${patientId}
            order by v.date, v.started_at, v.id`,
      );
      const samples = await section(
        tx,
        sql`select to_jsonb(p) || jsonb_build_object('medicines', coalesce((
              select jsonb_agg(to_jsonb(pm) || jsonb_build_object('name', m.name)
                               order by pm.medicine_id)
              from probe_medicines pm join medicines m on m.id = pm.medicine_id
              where pm.probe_id = p.id), '[]'::jsonb)) as r
            from probes p where p.patient_id = ${patientId} order by p.id`,
      );
      const alerts = await section(
        tx,
        sql`select to_jsonb(a) as r from safety_alerts a where a.patient_id = ${patientId}
            order by a.id`,
      );
      const kitOrders = await section(
        tx,
        sql`select to_jsonb(s) as r from probe_sets s where s.patient_id = ${patientId}
            order by s.id`,
      );
      const notes = await section(
        tx,
        sql`select to_jsonb(n) as r from notes n where n.patient_id = ${patientId} order by n.id`,
      );
      const messages = await section(
        tx,
        sql`select to_jsonb(m) as r from messages m where m.patient_id = ${patientId}
            order by m.created_at, m.id`,
      );
      const files = await section(
        tx,
        sql`select to_jsonb(f) - 'content' as r from files f where f.patient_id = ${patientId}
            order by f.id`,
      );
      const audit = await section(
        tx,
        sql`select to_jsonb(a) as r from audit_entries a where a.patient_id = ${patientId}
            order by a.id`,
      );
      return {
        format: 'portal-patient-copy/1' as const,
        generated_at: new Date().toISOString(),
        patient,
        account: account ?? null,
        inclusion: inclusion ?? null,
        medicines,
        additional_medicines: additional,
        visits,
        samples,
        safety_alerts: alerts,
        kit_orders: kitOrders,
        notes,
        messages,
        files,
        audit,
        access_log: await accessLogOf(tx, patientId),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
