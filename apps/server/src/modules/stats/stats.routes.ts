import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminStats, TeacherStats } from '@skillhive/shared/contracts/stats';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import * as stats from './stats.service.ts';

/**
 * Earnings and revenue computed by the database, not the browser: the teacher and admin homes read
 * these. Their money comes from the earnings ledger (decision 039), their counts from paid lines.
 */
export async function statsRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/teachers/me/stats',
    {
      config: { access: 'teacher', owner: 'own-classes' },
      schema: {
        tags: ['stats'],
        operationId: 'getMyTeachingStats',
        summary:
          "The caller's earnings from the ledger — their shares after the platform's fee, less what refunds and lost disputes clawed back — in total, per class (archived ones included) and per month of sale for the last 12 months (UTC), where they are now (pending, available, frozen, paid out), and paid enrollments; money in integer cents (`…Cents`) and in decimal (`total`, `revenue`) as class prices are (teachers only)",
        response: { 200: TeacherStats },
      },
    },
    async (request) => stats.getTeacherStats(db, viewerOf(request), now()),
  );

  typed.get(
    '/api/admin/stats',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['stats'],
        operationId: 'getPlatformStats',
        summary:
          "The platform: accounts by displayed role, classes by status, and from the ledger the revenue (what students paid for the lines they kept, net of refunds and lost disputes) and the platform's fee of it, in total and per month of sale for the last 12 months (UTC), with paid enrollments; money in integer cents (`…Cents`) and in decimal (`total`, `fee`, `revenue`) as class prices are (admins only)",
        response: { 200: AdminStats },
      },
    },
    async () => stats.getAdminStats(db, now()),
  );
}
