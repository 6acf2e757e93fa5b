import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminStats, TeacherStats } from '@skillhive/shared/contracts/stats';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import * as stats from './stats.service.ts';

/** Earnings and revenue computed by the database, not the browser: the teacher and admin homes read these. */
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
          "The caller's earnings: paid enrollments and revenue per class (archived ones included) and per month for the last 12 months (UTC), net of refunds; money in integer cents (`…Cents`) and in decimal (`total`, `revenue`) as class prices are (teachers only)",
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
          'The platform: accounts by displayed role, classes by status, and revenue of paid enrollments in total and per month for the last 12 months (UTC), net of refunds; money in integer cents (`…Cents`) and in decimal (`total`, `revenue`) as class prices are (admins only)',
        response: { 200: AdminStats },
      },
    },
    async () => stats.getAdminStats(db, now()),
  );
}
