import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  // The embedded database lives in this process and has one connection: a ping would wait behind
  // any open transaction (an import's write, ADR 036) and say nothing a live process does not.
  // A PostgreSQL server can go away on its own, so it is asked.
  const ping = config.database.kind === 'postgres';
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
};
