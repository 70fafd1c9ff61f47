import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { builtImage } from '../db/pglite-image.js';
import { migrateDatabase } from '../db/roles.js';
import { units, users } from '../db/schema.js';
import { hashPassword } from '../lib/passwords.js';
import { createAdmin, ensureInitialAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { createUnit } from '../modules/units/index.js';
import { demoAdmins, demoDoctors, demoUnits, DEMO_PASSWORD } from './data.js';
import { eq, inArray } from 'drizzle-orm';
import { addDemoAnnouncements } from './announcements.js';
import { addDemoPatients } from './patients.js';
import { addDemoReasons } from './reasons.js';
import { addDemoProbes } from './probes.js';
import { addDemoProbeSets } from './probe-sets.js';
import { addDemoCalendars, addDemoVisits } from './visits.js';
import { addDemoDocuments } from './documents.js';
import { addDemoLab } from './lab.js';
import { addDemoImports } from './imports.js';
import { demoPatientLogin } from './patient-login.js';
import { addDemoRetention } from './retention.js';
import { addDemoMonitoring } from './monitoring.js';
import { addDemoRecordLock } from './locks.js';
import { addDemoAccessLog, DEMO_IOD_LOGIN } from './access-log.js';

/**
 * `npm run demo`: fills an EMPTY database with a plausible study (units with work hours, doctors,
 * administrators, patients with visits and samples) so that a new user sees a living portal. Run it while
 * the portal is stopped: the embedded database may be opened by one process only.
 */
async function main() {
  const webRoot = fileURLToPath(new URL('../../../web/dist', import.meta.url));
  const config = loadConfig(process.env, existsSync(webRoot) ? webRoot : null);
  const database = await openDatabase(
    config.database.kind === 'pglite'
      ? { kind: 'pglite', dataDir: config.database.dataDir, image: builtImage }
      : { kind: 'postgres', url: config.database.url },
  );
  try {
    // As main.ts: the migration role migrates and grants when one is configured.
    await migrateDatabase(
      database,
      config.database.kind === 'postgres' ? config.database.migrationUrl : null,
    );
    const { db } = database;
    const [existing] = await db.select({ n: count() }).from(units);
    if (existing && existing.n > 0) {
      console.log('The database already holds data; the demo fills only an empty database.');
      return;
    }
    const initial = await ensureInitialAdmin(db, config.initialAdmin);
    if (initial.created && initial.generatedPassword) {
      console.log(`First administrator: ${initial.login} / ${initial.generatedPassword}`);
    }

    const unitIds: number[] = [];
    for (const unit of demoUnits) unitIds.push((await createUnit(db, unit)).id);
    const logins: string[] = [];
    for (const [index, doctor] of demoDoctors.entries()) {
      const unitId = unitIds[index % unitIds.length]!;
      logins.push((await createDoctor(db, null, { ...doctor, unit_id: unitId })).email);
    }
    for (const login of demoAdmins) logins.push((await createAdmin(db, null, { login })).login);
    // The data protection officer (ADR 053).
    logins.push((await createAdmin(db, null, { login: DEMO_IOD_LOGIN, role: 'iod' })).login);

    // Demo accounts share one known password that counts as chosen, so they sign in directly.
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db
      .update(users)
      .set({ password_hash: passwordHash, changed_password_at: new Date() })
      .where(inArray(users.login, logins));
    const [first] = await db
      .select({ login: users.login })
      .from(users)
      .where(eq(users.role, 'doctor'))
      .limit(1);
    const patientCount = await addDemoPatients(db);
    // Work hours first: the visits are placed on the slots the calendars offer.
    const [coordinator] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.login, demoAdmins[0]!));
    const ruleCount = await addDemoCalendars(db, coordinator?.id ?? null);
    const visitCounts = await addDemoVisits(db, coordinator?.id ?? null);
    // Samples after the visits: some belong to a recorded visit.
    const probeCounts = coordinator
      ? await addDemoProbes(db, coordinator.id)
      : { collected: 0, sent: 0, received: 0 };
    if (coordinator) await addDemoAnnouncements(db, coordinator.id); // issue 11: announcements, phones
    if (coordinator) await addDemoDocuments(db, coordinator.id); // issue 11: panel documents
    if (coordinator) await addDemoProbeSets(db, coordinator.id); // ---- kit orders (issue 11) ----
    if (coordinator) await addDemoLab(db, coordinator.id, config); // ---- laboratory (issue 12) ----
    if (coordinator) await addDemoImports(db, coordinator.id); // issue 12: an import batch of 50 patients
    if (coordinator) await addDemoReasons(db, coordinator.id); // issue 23: changes with reasons
    // One patient's sign-in, printed as the portal's "Drukuj dane logowania" makes it (a new
    // generated password the patient must replace first): the patient API has no screen here.
    const patientLogin = coordinator ? await demoPatientLogin(db, coordinator.id) : null;
    if (coordinator) await addDemoRetention(db, coordinator.id); // issue 24: one anonymised patient
    // Issue 23: signatures, a monitor with verification marks and queries.
    const monitoring = await addDemoMonitoring(db, unitIds[0]!, DEMO_PASSWORD);
    // Issue 23: a signed visit locked by the coordinator (ADR 048).
    const locked = coordinator ? await addDemoRecordLock(db, coordinator.id) : null;
    // Who read what (ADR 052): entries of the doctors and administrators, not the IOD's.
    await addDemoAccessLog(
      db,
      logins.filter((login) => login !== DEMO_IOD_LOGIN),
    );

    console.log(
      `Demo study created: ${demoUnits.length} units, ${demoDoctors.length} doctors, ` +
        `${demoAdmins.length} administrators, ${patientCount} patients, ${ruleCount} calendar ` +
        `rules, ${visitCounts.done} recorded and ${visitCounts.upcoming} upcoming visits ` +
        `(overdue: ${visitCounts.overdue}), samples: ${probeCounts.collected} collected, ` +
        `${probeCounts.sent} sent, ${probeCounts.received} with results.\n` +
        `Every demo account signs in with the password "${DEMO_PASSWORD}" ` +
        `(for example doctor ${first?.login ?? '-'}, administrator ${demoAdmins[0]}, ` +
        `data protection officer ${DEMO_IOD_LOGIN} at "Inspektor ochrony danych").`,
    );
    if (patientLogin) {
      console.log(
        `Patient ${patientLogin.name} (the patient API only): login ${patientLogin.login}, ` +
          `password ${patientLogin.password}. Sign in with POST /api/auth/login/patient; the ` +
          'password must be replaced first with PUT /api/change_password (README: "Demo").',
      );
    }
    console.log(
      `Monitor ${monitoring.login} (password "${DEMO_PASSWORD}", at "Monitor badania" on the ` +
        `login page): ${monitoring.signed} signed ` +
        `visits, ${monitoring.changedAfterSigning} changed after signing, ` +
        `${monitoring.unsigned} recorded but unsigned; ${monitoring.queries.open} open and ` +
        `${monitoring.queries.answered} answered queries.` +
        (locked ? ` Locked record: ${locked.record_type} ${locked.record_id}.` : ''),
    );
    // ---- tracking ---- the demo's waybills are invented: only the fake provider moves them.
    console.log(
      'Start it with TRACKING_PROVIDER=fake LAB_SIMULATOR=on npm start to see its shipments move ' +
        'and the fake laboratory send results for samples scanned in at reception.',
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
