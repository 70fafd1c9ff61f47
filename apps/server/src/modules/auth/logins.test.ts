import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loginSkeleton } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, runMigrations } from '../../db/client.js';
import { createTestApp, unique, uniqueEmail } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';
import { withServer } from '../../test/server-database.js';
import type { DatabaseHandle } from '../../db/client.js';
import { dropDatabase } from '../../db/drop-database.js';

const EXISTS = { status: 'exist_admin' };
const INVALID_LOGIN = {
  status: 'validation_error',
  errors: {
    login: [
      'Login może zawierać tylko widoczne znaki, bez spacji, a litery tylko z jednego alfabetu',
    ],
  },
};

let t: TestApp;
let me: ReadyAdmin;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.readyAdmin();
});
afterAll(async () => {
  await t?.close();
});

const createAdmin = (login: string) =>
  t.request('POST', '/api/admins', { token: me.session.token, body: { login } });

/** Digits only: they belong to no script, so a Cyrillic login can carry them too. */
const digits = () => String(Math.floor(Math.random() * 1e9)).padStart(9, '7');
const fullWidth = (text: string) =>
  [...text]
    .map((c) => (/[!-~]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c))
    .join('');

describe('look-alike administrator logins', () => {
  it('refuses invisible, format and mixed-script logins with the invalid_login message', async () => {
    const base = `secadmin${digits()}`;
    for (const login of [
      `ѕ${base.slice(1)}`, // Cyrillic s
      `sec\u200b${base.slice(3)}`,
      `sec\u00ad${base.slice(3)}`,
      `\u202e${base}`,
      `sec ${base.slice(3)}`,
    ]) {
      const res = await createAdmin(login);
      expect(res.statusCode, JSON.stringify(login)).toBe(422);
      expect(res.json()).toEqual(INVALID_LOGIN);
    }
  });

  it('answers exist_admin to a login confusable with an existing one', async () => {
    const base = `secadmin${digits()}`;
    expect((await createAdmin(base)).statusCode).toBe(200);
    for (const login of [
      base.toUpperCase(),
      fullWidth(base),
      base.replace('m', 'rn'),
      base.replace('i', '1'),
      ` ${base} `,
    ]) {
      const res = await createAdmin(login);
      expect(res.statusCode, login).toBe(409);
      expect(res.json()).toEqual(EXISTS);
    }
  });

  it('treats NFC and NFD spellings as one login', async () => {
    const nfc = `żółw${digits()}`;
    expect((await createAdmin(nfc)).statusCode).toBe(200);
    const res = await createAdmin(nfc.normalize('NFD'));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(EXISTS);
  });

  it('refuses a login written wholly in Cyrillic that copies a Latin one', async () => {
    const n = digits();
    expect((await createAdmin(`ceca${n}`)).statusCode).toBe(200);
    const res = await createAdmin(`сеса${n}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(EXISTS);
  });

  it('refuses renaming an administrator to a look-alike of another', async () => {
    const taken = `rename${digits()}`;
    expect((await createAdmin(taken)).statusCode).toBe(200);
    const other = (await createAdmin(unique('other'))).json<{ data: { id: number } }>();
    const res = await t.request('PUT', `/api/admins/${other.data.id}`, {
      token: me.session.token,
      body: { login: taken.replace('m', 'rn'), version: 1 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(EXISTS);
  });

  it('stores the normalised login and signs in with any spelling of it', async () => {
    const { login, password } = await t.admin({ login: `Signin${digits()}` });
    const res = await t.request('POST', '/api/auth/login/admin', {
      body: { login: fullWidth(login), password },
      remoteAddress: '10.9.0.1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: { login: string } }>().user.login).toBe(login);
  });
});

describe('look-alike doctor e-mails', () => {
  it('refuses invisible characters and answers exist_doctor to a confusable e-mail', async () => {
    const unit = await t.unit();
    const body = {
      firstname: 'Jan',
      surname: 'Nowak',
      phone_number: '600100200',
      unit_id: unit.id,
    };
    const email = uniqueEmail('lekarz');
    const first = await t.request('POST', '/api/doctors', {
      token: me.session.token,
      body: { ...body, email },
    });
    expect(first.statusCode).toBe(200);
    const hidden = await t.request('POST', '/api/doctors', {
      token: me.session.token,
      body: { ...body, email: `\u200b${email}` },
    });
    expect(hidden.statusCode).toBe(422);
    const lookAlike = await t.request('POST', '/api/doctors', {
      token: me.session.token,
      body: { ...body, email: fullWidth(email.replace('l', '1')) },
    });
    expect(lookAlike.statusCode).toBe(409);
    expect(lookAlike.json()).toEqual({ status: 'exist_doctor' });
  });
});

describe('the skeleton in the database', () => {
  it('is the one the shared code computes', async () => {
    const samples = [
      'SecAdmin',
      'ｓｅｃａｄｍｉｎ',
      'secadrnin',
      'vvojtek',
      'сеса',
      'Łukasz.Żółć@x.pl',
      'a|b0',
    ];
    for (const login of samples) {
      const result = await t.db.execute<{ s: string }>(
        sql`select portal_login_skeleton(${login}) as s`,
      );
      const rows = (result as { rows: { s: string }[] }).rows;
      expect(rows[0]?.s, login).toBe(loginSkeleton(login));
    }
  });
});

/** An empty database of the lane's kind (PGlite, or a new one on TEST_DATABASE_URL's server). */
async function emptyDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ kind: 'pglite', dataDir: null });
    return { handle, drop: () => handle.close() };
  }
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString(), max: 1 });
  return {
    handle,
    drop: async () => {
      await handle.close();
      await withServer(serverUrl, (client) => dropDatabase(client, name));
    },
  };
}

describe('migration 0006 on existing look-alike logins', () => {
  // A fresh database runs every migration: slow on a busy machine.
  it(
    'keeps them all, suffixing the later ones, and does not fail',
    { timeout: 120_000 },
    async () => {
      // A migrations folder that stops before 0006, so the rows exist when 0006 runs.
      const dir = await mkdtemp(path.join(tmpdir(), 'portal-migrations-'));
      const { handle, drop } = await emptyDatabase();
      try {
        await cp(migrationsFolder, dir, { recursive: true });
        const journalFile = path.join(dir, 'meta', '_journal.json');
        const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
          entries: { tag: string }[];
        };
        const stop = journal.entries.findIndex((e) => e.tag.startsWith('0006'));
        journal.entries = journal.entries.slice(0, stop);
        await writeFile(journalFile, JSON.stringify(journal));
        if (handle.kind === 'pglite') {
          await migratePglite(handle.db as unknown as Parameters<typeof migratePglite>[0], {
            migrationsFolder: dir,
          });
        } else {
          await migratePg(handle.db as unknown as Parameters<typeof migratePg>[0], {
            migrationsFolder: dir,
          });
        }

        for (const login of ['secadmin', 'secadmln', 'ѕecadmin', 'other']) {
          await handle.executeSql(
            `insert into users (login, password_hash, role) values ($1, 'x', 'admin')`,
            [login],
          );
        }
        await runMigrations(handle);
        const { rows } = await handle.executeSql(
          'select id, login, login_skeleton from users order by id',
        );
        const [a, b, c, d] = rows as { id: number; login: string; login_skeleton: string }[];
        expect(a!.login_skeleton).toBe('secadmln');
        expect(b!.login_skeleton).toBe(`secadmln#${b!.id}`);
        expect(c!.login_skeleton).toBe(`secadmln#${c!.id}`);
        expect(d!.login_skeleton).toBe('other');
        // The suffixed rows stay editable; a new look-alike is refused.
        await handle.executeSql(`update users set updated_at = now() where id = $1`, [b!.id]);
        await expect(
          handle.executeSql(
            `insert into users (login, password_hash, role) values ('SECADMIN', 'x', 'admin')`,
          ),
        ).rejects.toThrow();
      } finally {
        await drop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
