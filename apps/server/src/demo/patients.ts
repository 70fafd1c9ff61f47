import { buildPesel } from '@portal/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { doctors, messages, users } from '../db/schema.js';
import { newPdf, pdfToBuffer } from '../lib/pdf.js';
import { uploadPatientFile } from '../modules/files/index.js';
import { sendMessage } from '../modules/messages/index.js';
import { createNote } from '../modules/notes/index.js';
import { createPatient } from '../modules/patients/index.js';
import type { Actor } from '../plugins/policy.js';
import { demoPatients } from './data.js';

/** A short ECG report as the demo's attachment (a real PDF, so the content check accepts it). */
async function demoReport(name: string): Promise<Buffer> {
  const doc = await newPdf('Opis EKG');
  doc.font('bold').fontSize(16).text('Opis badania EKG');
  doc.moveDown().font('regular').fontSize(11).text(`Pacjent: ${name}`);
  doc.text('Rytm zatokowy miarowy, 68/min. Oś serca pośrednia. PQ 160 ms, QRS 90 ms, QTc 420 ms.');
  doc.text('Bez zmian niedokrwiennych. Wniosek: zapis w granicach normy.');
  return pdfToBuffer(doc);
}

/** Patients for every demo doctor's unit, with comments, an attachment and messages. */
export async function addDemoPatients(db: Database): Promise<number> {
  const staff = await db
    .select({ id: doctors.id, userId: doctors.user_id, unitId: doctors.unit_id })
    .from(doctors)
    .where(isNull(doctors.deleted_at));
  const [adminUser] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, 'admin'))
    .limit(1);
  if (!adminUser || staff.length === 0) return 0;
  const admin: Actor = {
    userId: adminUser.id,
    sessionId: 0,
    login: 'demo',
    role: 'admin',
    doctorId: null,
    unitId: null,
    changedPasswordAt: new Date(),
  };

  let created = 0;
  for (const [index, p] of demoPatients.entries()) {
    const doctor = staff[index % staff.length]!;
    const doctorActor: Actor = {
      ...admin,
      userId: doctor.userId,
      role: 'doctor',
      doctorId: doctor.id,
      unitId: doctor.unitId,
    };
    const patient = await createPatient(db, admin, {
      personal: {
        firstname: p.firstname,
        surname: p.surname,
        pesel: buildPesel(p.born, index * 10 + 3, p.sex),
        address_street: p.street,
        address_building: String(10 + index),
        address_apartment: index % 3 ? String(index + 1) : null,
        address_postcode: p.postcode,
        address_city: p.city,
        phone_number: String(501_000_100 + index * 7_919),
        email:
          index % 2
            ? null
            : `${p.firstname.toLowerCase().replace(/[^a-z]/g, '')}${index}@example.pl`,
        weight: 62 + ((index * 7) % 40),
        height: 155 + ((index * 5) % 35),
        // Each participant's own number (ADR 041): the sample codes name the participant.
        project_number: `FDC-${String(index + 1).padStart(3, '0')}`,
        doctor_id: doctor.id,
        unit_id: doctor.unitId,
        acceptance: true,
      },
      exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
      inclusion: p.inclusion,
      medicines: p.medicines,
      additional_medicines: p.additional,
    });
    created += 1;
    await createNote(db, doctorActor, {
      ref_id: patient.id,
      content: `<p>Pacjent zakwalifikowany do badania. Ciśnienie na wizycie: <strong>${138 + (index % 12)}/${86 + (index % 6)} mmHg</strong>.</p><ul><li>Zalecono domowe pomiary ciśnienia</li><li>Kontrola za 4 tygodnie</li></ul>`,
    });
    if (index % 2 === 0) {
      await uploadPatientFile(db, doctorActor, {
        fileName: `Opis EKG – ${p.surname}.pdf`,
        content: await demoReport(`${p.firstname} ${p.surname}`),
        comment: '<p>Badanie przesiewowe przed włączeniem do programu.</p>',
        refId: patient.id,
      });
    }
    const [account] = await db
      .select({ userId: users.id })
      .from(users)
      .where(eq(users.login, patient.login));
    const first = await sendMessage(db, doctorActor, {
      receiver_user_id: account!.userId,
      content: '<p>Dzień dobry, proszę zabrać na wizytę dzienniczek pomiarów ciśnienia.</p>',
    });
    // The patient app marks messages read; the demo shows one read message per second patient.
    if (index % 2 === 1) {
      await db
        .update(messages)
        .set({ read_at: sql`now()` })
        .where(and(eq(messages.id, first.id), isNull(messages.read_at)));
    }
  }
  return created;
}
