import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, PageQuery } from '@skillhive/shared/contracts/common';
import { Coupon } from '@skillhive/shared/contracts/coupons';
import { CreateCouponBody } from '@skillhive/shared/rules/coupon-form';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import * as coupons from './coupons.service.ts';

const CREATE_DESCRIPTION =
  'The code is matched whatever its case; `value` is a whole percentage (1–100) or integer cents; `expiresAt` (ISO 8601, in the future) and `maxUses` are optional. 409 when the code is taken.';

/** Coupons (decision 019): admins make site-wide ones, teachers ones for their own classes. */
export async function couponsRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const deps = { db: opts.db, now: opts.now };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/admin/coupons',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['coupons'],
        operationId: 'createSiteCoupon',
        summary: 'Create a site-wide coupon, valid for every class (admins only)',
        description: CREATE_DESCRIPTION,
        body: CreateCouponBody,
        response: { 201: Coupon },
      },
    },
    async (request, reply) => {
      const admin = viewerOf(request);
      reply.code(201);
      return coupons.createCoupon(deps, admin, { teacherId: null }, request.body);
    },
  );

  typed.get(
    '/api/admin/coupons',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['coupons'],
        operationId: 'listSiteCoupons',
        summary: 'The site-wide coupons with their uses, newest first (admins only)',
        querystring: PageQuery,
        response: { 200: z.array(Coupon) },
      },
    },
    async (request, reply) =>
      replyWithPage(reply, await coupons.listCoupons(deps.db, { teacherId: null }, request.query)),
  );

  typed.post(
    '/api/teachers/me/coupons',
    {
      config: { access: 'teacher', errors: [409] },
      schema: {
        tags: ['coupons'],
        operationId: 'createMyCoupon',
        summary: "Create a coupon for the caller's own classes (teachers only)",
        description: CREATE_DESCRIPTION,
        body: CreateCouponBody,
        response: { 201: Coupon },
      },
    },
    async (request, reply) => {
      const teacher = viewerOf(request);
      reply.code(201);
      return coupons.createCoupon(deps, teacher, { teacherId: teacher.id }, request.body);
    },
  );

  typed.get(
    '/api/teachers/me/coupons',
    {
      config: { access: 'teacher', list: true },
      schema: {
        tags: ['coupons'],
        operationId: 'listMyCoupons',
        summary: "The caller's own coupons with their uses, newest first (teachers only)",
        querystring: PageQuery,
        response: { 200: z.array(Coupon) },
      },
    },
    async (request, reply) =>
      replyWithPage(reply, await coupons.listCoupons(deps.db, { teacherId: viewerOf(request).id }, request.query)),
  );

  typed.post(
    '/api/coupons/:id/disable',
    {
      config: { access: 'signed-in', owner: 'coupon-teacher-or-admin', errors: [404] },
      schema: {
        tags: ['coupons'],
        operationId: 'disableCoupon',
        summary:
          'Disable a coupon: it is refused from now on, its uses so far stay (its teacher, or an admin; 404 for anyone else)',
        params: IdParam,
        response: { 200: Coupon },
      },
    },
    async (request) => coupons.disableCoupon(deps, viewerOf(request), request.params.id),
  );
}
