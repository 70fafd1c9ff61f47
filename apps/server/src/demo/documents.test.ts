import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { addDemoDocuments } from './documents.js';
import { createAdmin } from '../modules/admins/index.js';
import { listPanelDocuments } from '../modules/documents/index.js';
import { checkAttachment } from '../modules/files/index.js';
import { files } from '../db/schema.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';
import type { Actor } from '../plugins/policy.js';

describe('demo documents', () => {
  let database: TestDatabase;
  let actor: Actor;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.handle.db;
    await createAdmin(db, null, { login: 'demo.documents' });
    const [admin] = await db.select().from(users).where(eq(users.login, 'demo.documents'));
    actor = {
      userId: admin!.id,
      sessionId: 0,
      login: admin!.login,
      role: 'admin',
      doctorId: null,
      unitId: null,
      changedPasswordAt: new Date(),
    };
    expect(await addDemoDocuments(db, admin!.id)).toBe(4);
  });
  afterAll(() => database?.close());

  it('puts a pdf and a txt in each panel, each passing the upload check', async () => {
    const db = database.handle.db;
    for (const panel of ['doctor', 'patient']) {
      const names = (await listPanelDocuments(db, actor, panel)).data.data.map(
        (d) => d.original_name,
      );
      expect(names).toHaveLength(2);
      expect(names.some((n) => n.endsWith('.pdf'))).toBe(true);
      expect(names.some((n) => n.endsWith('.txt'))).toBe(true);
    }
    const stored = await db
      .select({ name: files.original_name, content: files.content, mime: files.mime_type })
      .from(files);
    for (const file of stored) {
      expect(await checkAttachment(file.name, file.content, ['pdf', 'txt'])).toBe(file.mime);
    }
  });
});
