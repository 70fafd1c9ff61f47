import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Announcement } from '@portal/shared';
import { globalMessageReads, globalMessages } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';

let t: TestApp;
// Every log line at trace level: the content must appear in none of them.
const logLines: string[] = [];
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp({ logStream: { write: (line) => void logLines.push(line) } });
  admin = await t.readyAdmin();
  const unitId = (await t.unit()).id;
  doctor = await t.readyDoctor(unitId);
  otherDoctor = await t.readyDoctor(unitId);
});
afterAll(() => t?.close());

const URL = '/api/notifications/global';

async function send(token: string, content: string): Promise<Announcement> {
  const res = await t.request('POST', URL, { token, body: { content } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: Announcement }>().data;
}

async function list(token = admin.session.token) {
  const res = await t.request('GET', URL, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Announcement[]; total_count: number }>();
}

describe('announcements', () => {
  it('sends, lists newest first with the sender and read count, edits and deletes', async () => {
    const before = (await list()).total_count;
    const fromAdmin = await send(admin.session.token, '<p>Przerwa techniczna w sobotę.</p>');
    expect(fromAdmin).toMatchObject({
      content: '<p>Przerwa techniczna w sobotę.</p>',
      sender: null,
      sender_user_id: admin.session.user.id,
      readNum: 0,
      receiver_user_id: 1,
      version: 1,
    });
    const fromDoctor = await send(doctor.session.token, '<p>Proszę o <strong>pomiar</strong></p>');
    expect(fromDoctor.sender).toEqual({
      firstname: doctor.doctor.firstname,
      surname: doctor.doctor.surname,
    });

    // Two patients have read the doctor's announcement (the patient app records reads).
    await t.db.insert(globalMessageReads).values([
      { message_id: fromDoctor.id, user_id: admin.session.user.id },
      { message_id: fromDoctor.id, user_id: otherDoctor.session.user.id },
    ]);
    const listed = await list(doctor.session.token);
    expect(listed.total_count).toBe(before + 2);
    expect(listed.data.slice(0, 2).map((a) => [a.id, a.readNum])).toEqual([
      [fromDoctor.id, 2],
      [fromAdmin.id, 0],
    ]);

    const edited = await t.request('PUT', `${URL}/${fromDoctor.id}`, {
      token: doctor.session.token,
      body: { content: '<p>Poprawione</p>', version: 1 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      data: { id: fromDoctor.id, content: '<p>Poprawione</p>', version: 2, readNum: 2 },
    });
    // A screen that still holds version 1 would overwrite the edit unseen.
    const stale = await t.request('PUT', `${URL}/${fromDoctor.id}`, {
      token: admin.session.token,
      body: { content: '<p>Stara wersja</p>', version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    // The contract's body has no version (ADR 018): without one the edit is still claimed (the
    // row locked, the version raised) and wins.
    const unversioned = await t.request('PUT', `${URL}/${fromDoctor.id}`, {
      token: admin.session.token,
      body: { content: '<p>Administrator poprawia bez wersji</p>', receiver_user_id: 1 },
    });
    expect(unversioned.statusCode).toBe(200);
    expect(unversioned.json()).toMatchObject({ data: { version: 3 } });
    const replaced = await t.request('PUT', `${URL}/${fromDoctor.id}`, {
      token: admin.session.token,
      body: { content: '<p>Administrator poprawia</p>', receiver_user_id: 1, version: 3 },
    });
    expect(replaced.json()).toMatchObject({
      data: { version: 4, content: '<p>Administrator poprawia</p>' },
    });

    const deleted = await t.request('DELETE', `${URL}/${fromDoctor.id}`, {
      token: doctor.session.token,
    });
    expect(deleted.json()).toEqual({ status: 'success' });
    // Its reads go with it.
    expect(
      await t.db
        .select()
        .from(globalMessageReads)
        .where(eq(globalMessageReads.message_id, fromDoctor.id)),
    ).toEqual([]);
    const after = await list();
    expect(after.total_count).toBe(before + 1);
    expect(after.data.map((a) => a.id)).not.toContain(fromDoctor.id);
    const again = await t.request('DELETE', `${URL}/${fromDoctor.id}`, {
      token: admin.session.token,
    });
    expect(again.statusCode).toBe(404);
    const editGone = await t.request('PUT', `${URL}/${fromDoctor.id}`, {
      token: admin.session.token,
      body: { content: '<p>x</p>', version: 3 },
    });
    expect(editGone.statusCode).toBe(404);
  });

  it("lets a doctor change only the own; an administrator changes anyone's", async () => {
    const mine = await send(doctor.session.token, '<p>Moje</p>');
    const fromAdmin = await send(admin.session.token, '<p>Administratora</p>');
    for (const target of [fromAdmin, mine]) {
      const edit = await t.request('PUT', `${URL}/${target.id}`, {
        token: otherDoctor.session.token,
        body: { content: '<p>Podmiana</p>', version: 1 },
      });
      expect(edit.statusCode).toBe(403);
      expect(edit.json()).toEqual({ status: 'forbidden' });
      const del = await t.request('DELETE', `${URL}/${target.id}`, {
        token: otherDoctor.session.token,
      });
      expect(del.statusCode).toBe(403);
    }
    // Nothing changed.
    const [row] = await t.db.select().from(globalMessages).where(eq(globalMessages.id, mine.id));
    expect(row).toMatchObject({ content: '<p>Moje</p>', version: 1 });

    const byAdmin = await t.request('PUT', `${URL}/${mine.id}`, {
      token: admin.session.token,
      body: { content: '<p>Poprawka administratora</p>', version: 1 },
    });
    expect(byAdmin.statusCode).toBe(200);
    // The sender stays the doctor who sent it.
    expect(byAdmin.json()).toMatchObject({ data: { sender_user_id: doctor.session.user.id } });
    const removed = await t.request('DELETE', `${URL}/${mine.id}`, { token: admin.session.token });
    expect(removed.statusCode).toBe(200);
  });

  it('sanitises the content and refuses an empty or too long one', async () => {
    const cleaned = await send(
      doctor.session.token,
      '<p onclick="steal()">Ważne<script>alert(1)</script></p><img src=x onerror=alert(1)>',
    );
    expect(cleaned.content).toBe('<p>Ważne</p>');

    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{}, { content: ['To pole musi być wypełnione'] }],
      [{ content: '' }, { content: ['To pole musi być wypełnione'] }],
      [{ content: '<script>alert(1)</script>' }, { content: ['To pole musi być wypełnione'] }],
      [{ content: '<p> </p><p><br></p>' }, { content: ['To pole musi być wypełnione'] }],
      [{ content: 'x'.repeat(100_001) }, { content: ['Wartość tego pola jest za długa'] }],
    ];
    for (const [body, errors] of cases) {
      for (const [method, url] of [
        ['POST', URL],
        ['PUT', `${URL}/${cleaned.id}`],
      ] as const) {
        const res = await t.request(method, url, {
          token: doctor.session.token,
          body: method === 'PUT' ? { ...body, version: 1 } : body,
        });
        expect(res.statusCode, `${method} ${JSON.stringify(body).slice(0, 40)}`).toBe(422);
        expect(res.json()).toEqual({ status: 'validation_error', errors });
      }
    }
    const longest = await send(doctor.session.token, 'x'.repeat(100_000));
    expect(longest.content).toHaveLength(100_000);

    // A megabyte never reaches the route: the body limit answers in the common error shape.
    const huge = await t.request('POST', URL, {
      token: doctor.session.token,
      body: { content: 'x'.repeat(1_100_000) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ status: 'error', error: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });

  it('answers receiver_user_id 1 and refuses any other receiver (ADR 038)', async () => {
    const sent = await t.request('POST', URL, {
      token: admin.session.token,
      body: { content: '<p>Do wszystkich</p>', receiver_user_id: 1 },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const { data } = sent.json<{ data: Announcement }>();
    expect(data.receiver_user_id).toBe(1);
    expect((await list()).data.find((a) => a.id === data.id)?.receiver_user_id).toBe(1);
    for (const receiver of [2, 0, -1, '1', null, 1.5, admin.session.user.id + 1000]) {
      for (const [method, url] of [
        ['POST', URL],
        ['PUT', `${URL}/${data.id}`],
      ] as const) {
        const res = await t.request(method, url, {
          token: admin.session.token,
          body: {
            content: '<p>Do jednego</p>',
            receiver_user_id: receiver,
            ...(method === 'PUT' ? { version: 1 } : {}),
          },
        });
        expect(res.statusCode, `${method} ${JSON.stringify(receiver)}`).toBe(422);
        expect(res.json()).toEqual({
          status: 'validation_error',
          errors: { receiver_user_id: ['Niektóre pola są nieprawidłowe'] },
        });
      }
    }
    const [row] = await t.db.select().from(globalMessages).where(eq(globalMessages.id, data.id));
    expect(row).toMatchObject({ content: '<p>Do wszystkich</p>', version: 1 });
  });

  it('logs nothing of the content', async () => {
    const secret = 'Tajna-treść-komunikatu-8f3a';
    const fromDoctor = await send(doctor.session.token, `<p>${secret}</p>`);
    await t.request('PUT', `${URL}/${fromDoctor.id}`, {
      token: doctor.session.token,
      body: { content: `<p>${secret} 2</p><script>x</script>`, version: 1 },
    });
    await t.request('POST', URL, {
      token: doctor.session.token,
      body: { content: secret.repeat(5000) },
    });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes('Tajna'))).toEqual([]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('lets one of two simultaneous edits of the same version win; the other gets 409', async () => {
    const target = await send(doctor.session.token, '<p>Wersja 1</p>');
    const edits = await Promise.all(
      [doctor, admin, doctor, admin].map((who, i) =>
        t.request('PUT', `${URL}/${target.id}`, {
          token: who.session.token,
          body: { content: `<p>Edycja ${i}</p>`, version: 1 },
        }),
      ),
    );
    expect(edits.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const winner = edits.find((r) => r.statusCode === 200)!.json<{ data: Announcement }>().data;
    const [row] = await t.db.select().from(globalMessages).where(eq(globalMessages.id, target.id));
    expect(row).toMatchObject({ content: winner.content, version: 2 });
  });
});
