import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { migrationsFolder } from '../../db/client.js';

const notReady = z.object({
  status: z.literal('not_ready'),
  /** What is missing: the database does not answer, its migrations differ from this build's, or the node is stopping. */
  reason: z.enum(['database_unreachable', 'migrations_not_current', 'draining']),
});

/** The `when` of this build's last migration, as drizzle records it in created_at. */
async function lastMigration(): Promise<number> {
  const journal = JSON.parse(
    await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, config, lifecycle },
) => {
  // The embedded database lives in this process and has one connection: a ping would wait behind
  // any open transaction (an import's write, ADR 036) and say nothing a live process does not.
  // A PostgreSQL server can go away on its own, so it is asked.
  const ping = config.database.kind === 'postgres';
  const expectedMigration = ping ? await lastMigration() : null;
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary:
          'Answers once migrations have run (they run before the server listens) and, on a PostgreSQL server, the database responds',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => {
      if (ping) await db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/health/live',
    {
      config: { access: 'public', noStore: true },
      schema: {
        tags: ['health'],
        summary:
          'The process is up and answering (liveness: asks nothing of the database; a process manager restarts a node that stops answering it)',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config: { access: 'public', noStore: true },
      schema: {
        tags: ['health'],
        summary:
          'Whether this node should get traffic (ADR 056): 200 when the database answers, its migrations are those of this build and the node is not draining; 503 not_ready with the reason otherwise (from the moment SIGTERM arrives)',
        response: { 200: z.object({ status: z.literal('ok') }), 503: notReady },
      },
    },
    async (_request, reply) => {
      const refuse = (reason: z.infer<typeof notReady>['reason']) =>
        reply.code(503).send({ status: 'not_ready' as const, reason });
      if (lifecycle.draining) return refuse('draining');
      if (expectedMigration !== null) {
        let applied: number | null;
        try {
          const result: unknown = await db.execute(
            sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
          );
          // Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown.
          const last = (result as { rows: { last: string | null }[] }).rows[0]?.last;
          applied = last == null ? null : Number(last);
        } catch (error) {
          // The table is unreadable (no migrations yet) or the server does not answer.
          const code = (error as { code?: unknown }).code;
          if (code === '42P01' || code === '3F000') return refuse('migrations_not_current');
          return refuse('database_unreachable');
        }
        if (applied !== expectedMigration) return refuse('migrations_not_current');
      }
      return { status: 'ok' as const };
    },
  );
};
