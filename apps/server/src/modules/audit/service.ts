import { warsawDayEnd, warsawDayStart } from '@portal/shared';
import type { AuditEntry, AuditQuery } from '@portal/shared';
import { and, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditEntries, doctors, patients, users } from '../../db/schema.js';
import { countAll, offsetOf } from '../../lib/listing.js';

export async function listAudit(db: Database, query: AuditQuery) {
  const where = and(
    query.patientIds ? inArray(auditEntries.patient_id, query.patientIds) : undefined,
    query.doctorIds
      ? inArray(
          auditEntries.user_id,
          db
            .select({ id: doctors.user_id })
            .from(doctors)
            .where(inArray(doctors.id, query.doctorIds)),
        )
      : undefined,
    // Dates in filters are calendar days in Warsaw, whatever the server's time zone.
    query.from_date ? gte(auditEntries.updated_at, warsawDayStart(query.from_date)) : undefined,
    query.to_date ? lt(auditEntries.updated_at, warsawDayEnd(query.to_date)) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select({
        entry: auditEntries,
        login: users.login,
        patientId: patients.id,
        firstname: patients.firstname,
        surname: patients.surname,
      })
      .from(auditEntries)
      .leftJoin(users, eq(users.id, auditEntries.user_id))
      .leftJoin(patients, eq(patients.id, auditEntries.patient_id))
      .where(where)
      .orderBy(desc(auditEntries.id))
      .limit(query.limit)
      .offset(offsetOf(query.page, query.limit)),
    db.select({ total: countAll }).from(auditEntries).where(where),
  ]);
  const data: AuditEntry[] = rows.map(({ entry, login, patientId, firstname, surname }) => ({
    id: entry.id,
    updated_at: entry.updated_at.toISOString(),
    user: { login },
    patient: patientId
      ? { id: patientId, firstname: firstname ?? '', surname: surname ?? '' }
      : null,
    entity_name: entry.entity_name,
    column_name: entry.column_name,
    old_value: entry.old_value,
    new_value: entry.new_value,
    operation: entry.operation,
  }));
  return { data, total: count?.total ?? 0, total_kind: 'exact' as const };
}
