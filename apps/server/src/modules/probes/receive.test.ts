import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEntries, probes } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let patientId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  patientId = (await registerPatient(t, doctor, { firstname: 'Ewa', surname: 'Odbiorcza' })).id;
});
afterAll(() => t?.close());

const scan = (code: unknown, token = doctor.session.token) =>
  t.request('POST', '/api/probes/receive', { token, body: { code } });

async function stored(id: number) {
  const [row] = await t.db.select().from(probes).where(eq(probes.id, id));
  return row!;
}

interface Received {
  status: string;
  probe: {
    id: number;
    code: string;
    status: string;
    patient_id: number;
    patient: { firstname: string; surname: string };
    arrived_at: string;
    arrived_by: { id: number; name: string };
  };
}

describe('POST /api/probes/receive', () => {
  it('records the first scan (time, user, collected → sent) and is audited', async () => {
    const probe = await insertProbe(t.db, doctor.session.user.id, patientId);
    const before = Date.now();
    // A scanner may add spaces or a line end around the code.
    const res = await scan(`  ${probe.code}\n`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Received>();
    expect(body).toMatchObject({
      status: 'success',
      probe: {
        id: probe.id,
        code: probe.code,
        status: 'sent',
        type_of_material: 'venous',
        collect_place: 'clinic',
        patient_id: patientId,
        patient: { firstname: 'Ewa', surname: 'Odbiorcza' },
        arrived_by: { id: doctor.session.user.id, name: expect.any(String) as string },
      },
    });
    expect(Date.parse(body.probe.arrived_at)).toBeGreaterThanOrEqual(before - 1000);
    const row = await stored(probe.id);
    expect(row.status).toBe('sent');
    expect(row.arrived_by).toBe(doctor.session.user.id);
    expect(row.version).toBe(2);
    const audit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.entity_name, 'probes'), eq(auditEntries.entity_id, String(probe.id))),
      );
    const changed = audit.filter((e) => e.operation !== 'INSERT' && e.operation !== 'insert');
    expect(changed.map((e) => e.column_name)).toEqual(
      expect.arrayContaining(['status', 'arrived_at', 'arrived_by']),
    );
    expect(changed.find((e) => e.column_name === 'status')).toMatchObject({
      old_value: 'collected',
      new_value: 'sent',
      user_id: doctor.session.user.id,
      patient_id: patientId,
    });
  });

  it('answers a repeated scan with 409 already_received and the first scan, changing nothing', async () => {
    const probe = await insertProbe(t.db, doctor.session.user.id, patientId);
    const first = (await scan(probe.code)).json<Received>();
    const again = await scan(probe.code, admin.session.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ ...first, status: 'already_received' });
    const row = await stored(probe.id);
    expect(row.arrived_by).toBe(doctor.session.user.id);
    expect(row.version).toBe(2);
  });

  it('keeps a sample that already has results received', async () => {
    const probe = await insertProbe(t.db, doctor.session.user.id, patientId, {
      status: 'received',
    });
    const res = await scan(probe.code, admin.session.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<Received>().probe).toMatchObject({
      status: 'received',
      arrived_by: { id: admin.session.user.id },
    });
  });

  it("answers 404 for an unknown code and another unit's sample, changing nothing", async () => {
    const probe = await insertProbe(t.db, doctor.session.user.id, patientId);
    const other = await scan(probe.code, otherDoctor.session.token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ status: 'not_found' });
    expect((await scan('NIE-MA-TAKIEJ')).statusCode).toBe(404);
    // A prefix does not find the sample.
    expect((await scan(probe.code.slice(0, -1))).statusCode).toBe(404);
    expect((await scan(probe.code.toLowerCase(), otherDoctor.session.token)).statusCode).toBe(404);
    const row = await stored(probe.id);
    expect(row).toMatchObject({ status: 'collected', arrived_at: null, version: 1 });
  });

  it('finds a code in another letter case and as the transliterated bytes of a scanner (ADR 035)', async () => {
    const probe = await insertProbe(t.db, doctor.session.user.id, patientId, {
      code: `KLODZ${Date.now() % 100_000}-2`,
    });
    // Caps Lock on the scanner's keyboard, and a scanner that sends what a Polish layout types.
    const lower = await scan(probe.code.toLowerCase());
    expect(lower.statusCode, lower.body).toBe(200);
    expect(lower.json<Received>().probe).toMatchObject({ id: probe.id, code: probe.code });
    const second = await insertProbe(t.db, doctor.session.user.id, patientId, {
      code: `KLODZ${Date.now() % 100_000}-3`,
    });
    const polish = await scan(`${second.code.replace('KLODZ', 'kŁóDź')}\r`);
    expect(polish.statusCode, polish.body).toBe(200);
    expect(polish.json<Received>().probe.id).toBe(second.id);
  });

  it('finds a code made before codes were barcode-safe by the bytes its label can be read as', async () => {
    const old = await insertProbe(t.db, doctor.session.user.id, patientId, {
      code: `ŁÓDŹ ${Date.now() % 100_000}`,
      legacy_code: true,
    });
    // As stored, and as a scanner that cannot send Ł (and drops the space) reads it.
    const ascii = await scan(old.code.replace('ŁÓDŹ ', 'LODZ'));
    expect(ascii.statusCode, ascii.body).toBe(200);
    expect(ascii.json<Received>().probe).toMatchObject({ id: old.id, code: old.code });
    // Two old codes that read alike are not guessed between.
    const suffix = Date.now() % 100_000;
    for (const code of [`Żuk ${suffix}!`, `żuk ${suffix}`]) {
      await insertProbe(t.db, doctor.session.user.id, patientId, { code, legacy_code: true });
    }
    expect((await scan(`ZUK${suffix}`)).statusCode).toBe(404);
  });

  it.each([[''], ['   '], [null], [42], ['x'.repeat(65)]])(
    'refuses code %j with 422',
    async (code) => {
      const res = await scan(code);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ status: 'validation_error' });
    },
  );
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('gives 10 simultaneous scans of one label one success and 9 already_received', async () => {
    const probe = await insertProbe(t.db, doctor.session.user.id, patientId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        scan(probe.code, i % 2 ? admin.session.token : doctor.session.token),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    const winner = answers.find((a) => a.statusCode === 200)!.json<Received>().probe;
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(a.json<Received>()).toEqual({ status: 'already_received', probe: winner });
    }
    expect((await stored(probe.id)).version).toBe(2);
  });
});
