import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { patients, probes } from '../db/schema.js';
import type { AppConfig } from '../config.js';
import { SecretBox, resolveSecretKey } from '../lib/secrets.js';
import { buildFakeOru, normalPanel, receiveHl7 } from '../modules/lab/index.js';
import type { FakeSample } from '../modules/lab/index.js';
import { saveSetting } from '../modules/settings/index.js';
import type { Actor } from '../plugins/policy.js';

/** The demo laboratory's account; the password is sealed like any stored secret. */
export const DEMO_SYNEVO = {
  login: 'synevo-demo',
  password: 'Synevo-Demo-2026',
  unit_code: 'KARDIO-01',
};

/** A code no demo sample carries: its results wait on /lab/unmatched. */
export const DEMO_UNMATCHED_CODE = 'ZZ9999999';

/**
 * The demo's laboratory (issue 12): the synevo setting gets a login and a sealed password (with
 * no key to seal it, the password is skipped with a log line and the import stays off), and the
 * fake laboratory sends results through the real service (not HTTP): panels for up to two sent
 * samples, the second with the laboratory's own ALT range, and one message for a code that
 * matches no sample (one unmatched panel). Answers how many messages were accepted.
 */
export async function addDemoLab(
  db: Database,
  actorUserId: number,
  keyOrConfig: Buffer | null | AppConfig,
  log: (line: string) => void = console.log,
): Promise<{ accepted: number; unmatched: number }> {
  const actor: Actor = {
    userId: actorUserId,
    sessionId: 0,
    login: 'demo',
    role: 'admin',
    doctorId: null,
    unitId: null,
    changedPasswordAt: new Date(),
  };
  // As main.ts: PORTAL_SECRET_KEY, or the key kept in DATA_DIR (made there once if missing).
  const key =
    keyOrConfig === null || Buffer.isBuffer(keyOrConfig)
      ? keyOrConfig
      : await resolveSecretKey(keyOrConfig, { warn: (_details, message) => log(message) });
  const secrets = key ? new SecretBox(key) : null;
  if (secrets) {
    await saveSetting(db, secrets, actor, 'synevo', {
      value: { ...DEMO_SYNEVO, enable_results_import: true },
    });
  } else {
    log('No key for stored secrets: the demo laboratory password is not set, its import is off.');
    await saveSetting(db, null, actor, 'synevo', {
      value: { ...DEMO_SYNEVO, password: '', enable_results_import: false },
    });
  }

  const sent = await db
    .select({ code: probes.code, sex: patients.sex, birth_date: patients.birth_date })
    .from(probes)
    .innerJoin(patients, eq(patients.id, probes.patient_id))
    .where(and(eq(probes.status, 'sent'), eq(probes.type_of_test, 'biochemistry')))
    .orderBy(asc(probes.id))
    .limit(2);
  let accepted = 0;
  for (const [index, sample] of sent.entries()) {
    const panel: FakeSample = normalPanel(sample.code);
    // The second: ALT 48 U/l, inside the study's male range but above the laboratory's 10–40.
    if (index === 1)
      panel.observations[0] = { code: 'ALT', value: 48, unit: 'U/L', range: '10-40' };
    const outcome = await receiveHl7(
      db,
      buildFakeOru({
        controlId: `DEMO-${index + 1}`,
        sex: sample.sex === 'K' ? 'F' : 'M',
        birthDate: sample.birth_date.replaceAll('-', ''),
        samples: [panel],
      }),
    );
    if (outcome.code === 'AA') accepted += 1;
  }
  const unmatched = await receiveHl7(
    db,
    buildFakeOru({
      controlId: 'DEMO-UNMATCHED',
      sex: 'F',
      birthDate: '19580314',
      samples: [
        {
          code: DEMO_UNMATCHED_CODE,
          observations: [{ code: 'ALT', value: 31, unit: 'U/L', range: '10-40' }],
        },
      ],
    }),
  );
  if (unmatched.code === 'AA') accepted += 1;
  return { accepted, unmatched: unmatched.code === 'AA' ? 1 : 0 };
}
