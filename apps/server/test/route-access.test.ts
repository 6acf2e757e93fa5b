import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccess, type DeclaredRoute } from '../src/lib/authorize.ts';
import { createTestApp, type TestContext } from './harness.ts';

/**
 * Who may call each route, as its config declares it (decision 025): the access hook enforces the
 * role, the document says it. This list is the permission matrices' index: a route's access cannot
 * change without this line and the route's matrix (its suite's "permission matrix") changing too.
 * `role owner-rule` where a service checks ownership after the role.
 */
const DECLARED: Record<string, string> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'POST /api/jwt': 'session-cookie-only own-email-token',
  'GET /api/config': 'public',
  'POST /api/enrolled': 'signed-in not-own-class',
  'GET /api/enrolled/:email': 'self-or-admin',
  'GET /api/teachers/me/classes/:id/roster': 'teacher own-class-roster',
  'DELETE /api/enrolled/:id': 'signed-in enrollment-student',
  'POST /api/create-payment-intent': 'verified',
  'POST /api/payments': 'signed-in payer',
  'GET /api/payments/:email': 'self-or-admin',
  'POST /api/webhooks/stripe': 'signature',
  'GET /api/admin/payments': 'admin',
  'POST /api/admin/payments/:id/refunds': 'admin',
  'GET /api/admin/refunds/pending': 'admin',
  'GET /api/admin/refund-requests': 'admin',
  'POST /api/admin/refund-requests/:id/approve': 'admin',
  'POST /api/admin/refund-requests/:id/decline': 'admin',
  'POST /api/refund-requests': 'signed-in enrollment-student-or-404',
  'GET /api/refund-requests/mine': 'signed-in own-refund-requests',
  'GET /api/payments/me': 'signed-in own-payments',
  'GET /api/payments/me/:id': 'signed-in own-payment',
  'POST /api/admin/coupons': 'admin',
  'GET /api/admin/coupons': 'admin',
  'POST /api/teachers/me/coupons': 'teacher',
  'GET /api/teachers/me/coupons': 'teacher',
  'POST /api/coupons/:id/disable': 'signed-in coupon-teacher-or-admin',
  'GET /api/reviews': 'public',
  'GET /api/reviews/mine': 'signed-in own-reviews',
  'POST /api/reviews': 'signed-in paid-student',
  'POST /api/reviews/:id/reply': 'teacher review-class-teacher',
  'PATCH /api/reviews/:id/reply': 'teacher review-class-teacher',
  'POST /api/teachers/teacher-requests': 'verified not-a-teacher',
  'GET /api/teachers/teacher-requests': 'admin',
  'GET /api/teachers/teacher-requests/mine': 'signed-in',
  'PATCH /api/teachers/teacher-requests/:id/approve': 'admin',
  'PATCH /api/teachers/teacher-requests/:id/reject': 'admin',
  'POST /api/uploads/images': 'signed-in',
  'GET /api/uploads/images/:key': 'public',
  'POST /api/classes': 'teacher',
  'GET /api/classes': 'public-viewer-aware',
  'GET /api/classes/suggestions': 'public',
  'GET /api/classes/categories': 'public',
  'GET /api/classes/:id/public': 'public accepted-class',
  'GET /api/classes/teacher/:email': 'self-or-admin own-teacher-email',
  'GET /api/classes/:id': 'public-viewer-aware accepted-or-teacher-or-admin',
  'GET /api/classes/:id/stats': 'signed-in class-teacher-or-admin',
  'PATCH /api/classes/:id': 'teacher class-teacher',
  'DELETE /api/classes/:id': 'signed-in class-teacher-or-admin',
  'PATCH /api/classes/class-requests/:id/approve': 'admin',
  'PATCH /api/classes/class-requests/:id/reject': 'admin',
  'GET /api/classes/revisions': 'admin',
  'GET /api/classes/:id/revision': 'signed-in class-teacher-or-admin',
  'PATCH /api/classes/revisions/:id/approve': 'admin',
  'PATCH /api/classes/revisions/:id/reject': 'admin',
  'GET /api/classes/:id/content': 'signed-in content-reader',
  'GET /api/classes/:id/progress': 'signed-in class-teacher-or-admin',
  'GET /api/classes/:id/announcements': 'signed-in class-member',
  'GET /api/classes/:id/calendar.ics': 'signed-in class-member',
  'POST /api/classes/:id/sessions': 'teacher class-teacher',
  'POST /api/classes/:id/sessions/weekly': 'teacher class-teacher',
  'POST /api/classes/:id/content/publish': 'teacher class-teacher',
  'PUT /api/classes/:id/sessions/order': 'teacher class-teacher',
  'PATCH /api/class-sessions/:id': 'teacher class-teacher',
  'GET /api/classes/:id/schedule': 'public accepted-class',
  'GET /api/classes/:id/sections': 'teacher class-teacher',
  'POST /api/classes/:id/sections': 'teacher class-teacher',
  'PATCH /api/sections/:id': 'teacher class-teacher',
  'POST /api/sections/:id/cancel': 'signed-in class-teacher-or-admin',
  'POST /api/sections/:id/reschedule': 'signed-in class-teacher-or-admin',
  'GET /api/reschedule-offers': 'signed-in own',
  'POST /api/reschedule-offers/:id': 'signed-in enrollment-student-or-404',
  'POST /api/sections/:id/waitlist': 'signed-in not-own-class',
  'DELETE /api/sections/:id/waitlist': 'signed-in own',
  'GET /api/sections/:id/waitlist': 'signed-in class-teacher-or-admin',
  'GET /api/waitlist': 'signed-in own',
  'POST /api/class-sessions/:id/publish': 'teacher class-teacher',
  'DELETE /api/class-sessions/:id': 'teacher class-teacher',
  'PUT /api/class-sessions/:id/attendance': 'signed-in paid-student-own-mark',
  'PUT /api/class-sessions/:id/attendance/:studentId': 'teacher class-teacher',
  'POST /api/classes/:id/announcements': 'teacher class-teacher',
  'POST /api/classes/:id/materials': 'teacher class-teacher',
  'POST /api/classes/:id/materials/file': 'teacher class-teacher',
  'PUT /api/classes/:id/materials/order': 'teacher class-teacher',
  'PATCH /api/materials/:id': 'teacher class-teacher',
  'POST /api/materials/:id/publish': 'teacher class-teacher',
  'DELETE /api/materials/:id': 'teacher class-teacher',
  'GET /api/materials/:id/file': 'signed-in material-reader',
  'PUT /api/materials/:id/completion': 'signed-in paid-student-own-mark',
  'GET /api/users/admin/:user': 'self-or-admin',
  'GET /api/users/teacher/:email': 'self-or-admin',
  'GET /api/users/profile/:email': 'self-or-admin',
  'POST /api/users': 'signed-in',
  'POST /api/users/not-me': 'public not-me-token',
  'GET /api/users': 'admin',
  'PATCH /api/users/admin/:user': 'admin',
  'DELETE /api/users/:id': 'admin not-self-not-last-admin',
  'GET /api/users/me/notifications': 'signed-in own',
  'PUT /api/users/me/notifications': 'signed-in own',
  'PUT /api/users/me/time-zone': 'signed-in own',
  'GET /api/users/me/sessions': 'signed-in own',
  'DELETE /api/users/me/sessions/:id': 'signed-in own-session',
  'DELETE /api/users/me': 'signed-in own-account-confirmed',
  'GET /api/audit': 'admin',
  'GET /api/teachers/me/stats': 'teacher own-classes',
  'GET /api/admin/stats': 'admin',
  'GET /api/teachers/me/earnings': 'teacher own-earnings',
  'GET /api/teachers/me/earnings/lines': 'teacher own-earnings',
  'GET /api/teachers/me/earnings/statement': 'teacher own-earnings',
  'GET /api/teachers/me/payouts': 'teacher own-earnings',
  'POST /api/teachers/me/connect': 'teacher own-earnings',
  'GET /api/teachers/me/connect/return': 'teacher own-earnings',
  'GET /api/teachers/me/connect/refresh': 'teacher own-earnings',
  'GET /api/admin/payouts': 'admin',
  'GET /api/admin/payouts/upcoming': 'admin',
  'POST /api/admin/payouts/run': 'admin',
  'POST /api/admin/payouts/:id/retry': 'admin',
  'GET /api/admin/payout-batches': 'admin',
  'POST /api/admin/payout-batches': 'admin',
  'GET /api/admin/payout-batches/:id/csv': 'admin',
  'POST /api/admin/payout-batches/:id/mark-paid': 'admin',
  'GET /api/admin/earnings/revenue': 'admin',
  'GET /api/admin/disputes': 'admin',
  'GET /api/admin/teachers/:id/fee-rate': 'admin',
  'PUT /api/admin/teachers/:id/fee-rate': 'admin',
  'GET /api/admin/mailbox': 'admin mailbox-enabled',
  'POST /api/reports': 'signed-in not-own-target',
  'GET /api/admin/reports': 'admin',
  'POST /api/admin/reports/:id/decision': 'admin',
  'POST /api/admin/users/:id/suspension': 'admin',
  'DELETE /api/admin/users/:id/suspension': 'admin',
  'POST /api/classes/:id/messages': 'signed-in not-own-class',
  'GET /api/messages/threads': 'signed-in own',
  'GET /api/messages/threads/:id': 'signed-in thread-party-or-admin',
  'POST /api/messages/threads/:id/messages': 'signed-in thread-party',
  'GET /api/notifications': 'signed-in own',
  'POST /api/notifications/:id/read': 'signed-in own-notification',
  'POST /api/notifications/read': 'signed-in own',
  'GET /api/notifications/preferences': 'signed-in own',
  'PUT /api/notifications/preferences': 'signed-in own',
  'GET /api/notifications/stream': 'signed-in own',
};

const describeRoute = (route: DeclaredRoute) =>
  `${route.config.access ?? 'none'}${route.config.owner ? ` ${route.config.owner}` : ''}`;

describe('every route declares who may call it (decision 025)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // With Stripe, so its webhook is among the routes too.
    ctx = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_skillhive',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
      STRIPE_WEBHOOK_SECRET: 'whsec_skillhive',
    });
  });
  afterAll(() => ctx.close());

  it('walks every registered route, the web app’s files and the docs UI included: none lacks access', () => {
    const routes: DeclaredRoute[] = ctx.app.declaredRoutes;
    expect(routes.length).toBeGreaterThan(Object.keys(DECLARED).length);
    expect(routes.filter((route) => !route.config.access).map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it('declares for each API route the access its permission matrix tests', () => {
    const declared: DeclaredRoute[] = ctx.app.declaredRoutes;
    const api = declared.filter((route) => route.method !== 'HEAD' && /^\/api\/(?!docs|auth\/)/.test(route.url));
    expect(Object.fromEntries(api.map((route) => [`${route.method} ${route.url}`, describeRoute(route)]))).toEqual(
      DECLARED,
    );
  });
});

describe('the access hook', () => {
  it('answers a route that declares no access with an error, never its handler', async () => {
    const app = Fastify({ logger: false });
    registerAccess(app);
    let ran = false;
    app.get('/declared', { config: { access: 'public' } }, async () => ({ ok: true }));
    app.get('/undeclared', async () => {
      ran = true;
      return { ok: true };
    });
    expect((await app.inject({ method: 'GET', url: '/declared' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/undeclared' })).statusCode).toBe(500);
    expect(ran).toBe(false);
    expect(app.declaredRoutes.map(describeRoute)).toEqual(['public', 'public', 'none', 'none']);
    await app.close();
  });
});
