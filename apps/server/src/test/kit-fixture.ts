import { randomBytes } from 'node:crypto';
import { buildPesel, doctorBody, patientCreateBody } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { inTransaction } from '../db/client.js';
import { admins, probeSetKits, probeSets } from '../db/schema.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { createPatient } from '../modules/patients/index.js';
import { createUnit } from '../modules/units/index.js';
import type { Actor } from '../plugins/policy.js';

let serial = 0;
const tag = () => `${randomBytes(3).toString('hex')}-${++serial}`;

/**
 * A patient made through the services (unit, doctor, an administrator acting), for tests that run
 * outside the HTTP harness (the job on a database that outlives the app).
 */
export async function insertPatient(
  db: Database,
): Promise<{ patientId: number; adminUserId: number }> {
  const unit = await createUnit(db, {
    name: `Poradnia ${tag()}`,
    street: 'Marszałkowska',
    building_nr: '10',
    postcode: '00-001',
    city: 'Warszawa',
  });
  const doctor = await createDoctor(
    db,
    null,
    doctorBody.parse({
      firstname: 'Jan',
      surname: 'Kowalski',
      email: `lekarz-${tag()}@szpital.test`,
      phone_number: '600100200',
      unit_id: unit.id,
    }),
  );
  const admin = await createAdmin(db, null, { login: `admin-${tag()}` }, { passwordChosen: true });
  const [adminRow] = await db.select().from(admins).where(eq(admins.id, admin.id));
  const actor: Actor = {
    userId: adminRow!.user_id,
    sessionId: 0,
    login: 'test',
    role: 'admin',
    doctorId: null,
    unitId: null,
    changedPasswordAt: new Date(),
  };
  serial += 1;
  const patient = await createPatient(
    db,
    actor,
    patientCreateBody.parse({
      personal: {
        firstname: 'Tadeusz',
        surname: 'Mazur',
        pesel: buildPesel({ year: 1970, month: 3, day: 4 }, (process.pid % 500) * 10 + serial, 'M'),
        phone_number: '601202303',
        doctor_id: doctor.id,
        unit_id: unit.id,
        acceptance: true,
      },
      exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
      inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
      medicines: [],
      additional_medicines: [],
    }),
  );
  return { patientId: patient.id, adminUserId: actor.userId };
}

/**
 * An order with one kit per entry of `codes` (null: no waybill yet), written straight into the
 * tables (the order API is another module's). Status 1 accepted by default.
 */
export async function insertOrder(
  db: Database,
  patientId: number,
  codes: readonly (string | null)[],
  status: 0 | 1 | 2 = 1,
): Promise<{ setId: number; kitIds: number[] }> {
  return inTransaction(db, null, async (tx) => {
    const [set] = await tx
      .insert(probeSets)
      .values({
        patient_id: patientId,
        amount: codes.length,
        street: 'Długa',
        building: '5',
        postcode: '00-950',
        city: 'Warszawa',
        status,
        reason: status === 2 ? 'Brak zgody' : null,
      })
      .returning({ id: probeSets.id });
    const kits = await tx
      .insert(probeSetKits)
      .values(
        codes.map((code, index) => ({
          probe_set_id: set!.id,
          patient_id: patientId,
          kit_number: index + 1,
          tracking_code: code,
        })),
      )
      .returning({ id: probeSetKits.id });
    return { setId: set!.id, kitIds: kits.map((kit) => kit.id) };
  });
}

/** A waybill nobody else in this database uses. */
export function waybill(): string {
  return `PX${randomBytes(6).toString('hex').toUpperCase()}`;
}
