import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { COUPON_MESSAGES } from '@skillhive/shared/rules/coupons';
import { MESSAGE_MESSAGES, UPLOAD_MESSAGES } from '@skillhive/shared/rules/messages';
import { percentToBasisPoints } from '@skillhive/shared/rules/earnings';
import type { Registry } from 'prom-client';
import type { Database } from './db/client.ts';
import type { Env } from './env.ts';
import type { ImageStorage } from './modules/uploads/storage.public.ts';
import { createLimiter, tryAgainIn } from './lib/rate-limit.ts';
import { registerJobs } from './jobs.ts';
import { registerAccess } from './lib/authorize.ts';
import { createAuth, type Auth } from './modules/auth/auth.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createPasswordLockout } from './modules/auth/lockout.ts';
import { createTokenService } from './modules/auth/token.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { registerMailMetrics } from './modules/mail/mail.metrics.ts';
import { mailRoutes } from './modules/mail/mail.routes.ts';
import { messagesRoutes } from './modules/messages/messages.routes.ts';
import { announcementsRoutes } from './modules/content/announcements.routes.ts';
import { createLiveNotifications } from './modules/notifications/live.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { moderationRoutes } from './modules/moderation/moderation.routes.ts';
import { checkDirectoryWritable, type ReadinessCheck } from './modules/health/health.service.ts';
import { lifecyclePlugin, type Lifecycle } from './modules/health/lifecycle.ts';
import { pingRedis } from './lib/redis.ts';
import { enrollmentsRoutes } from './modules/enrollments/enrollments.routes.ts';
import { createGateway } from './modules/gateways/create-gateway.ts';
import { type PaymentGateway, isTestGateway } from './modules/gateways/gateway.public.ts';
import { paymentHistoryRoutes } from './modules/checkout/payment-history.routes.ts';
import { paymentsRoutes } from './modules/checkout/checkout.routes.ts';
import type { Reconciler } from './modules/checkout/reconciler.ts';
import { earningsRoutes } from './modules/earnings/earnings.routes.ts';
import type { PayoutJob } from './modules/earnings/payout-job.ts';
import { payoutsRoutes } from './modules/earnings/payouts.routes.ts';
import { testGatewayPayoutRoutes } from './modules/earnings/test-gateway.routes.ts';
import { couponsRoutes } from './modules/coupons/coupons.routes.ts';
import { refundsRoutes } from './modules/refunds/refunds.routes.ts';
import { reviewsRoutes } from './modules/reviews/reviews.routes.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { sectionsRoutes } from './modules/sections/sections.routes.ts';
import { waitlistsRoutes } from './modules/waitlists/waitlists.routes.ts';
import { seatsFreedBy } from './modules/waitlists/waitlists.service.ts';
import type { createWaitlistJob } from './modules/waitlists/offer-job.ts';
import type { createSessionReminders } from './modules/content/session-reminders.ts';
import type { createSectionCancellationJob } from './modules/sections/cancellation-job.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { classesRoutes } from './modules/classes/classes.routes.ts';
import { teacherRequestsRoutes } from './modules/teacher-requests/teacher-requests.routes.ts';
import { limitSharpThreads } from './modules/uploads/image-processing.ts';
import { createProcessingQueue } from './modules/uploads/processing-queue.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { catalogueCachePlugin } from './plugins/catalogue-cache.ts';
import { logEveryResponse, loggerOptions, type LogDestination } from './lib/log-redaction.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { errorHandlerPlugin, sendClientError, sendFrameworkError } from './plugins/error-handler.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { createMetricsRegistry, metricsPlugin, type PoolStats } from './plugins/metrics.ts';
import { securityPlugin } from './plugins/security.ts';
import { loadServerRenderer } from './plugins/server-render.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { getClassPageMeta } from './modules/classes/class-page.service.ts';
import { swaggerPlugin } from './plugins/swagger.ts';

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));
/** The web build's server entry (decision 030), beside its browser build: `<web root>/../dist-ssr`. */
const serverEntryOf = (webRoot: string) => path.join(webRoot, '..', 'dist-ssr', 'entry-server.js');

/** Everything the app needs from outside, passed in (STYLE.md): tests build it with real parts. */
export interface AppDeps {
  env: Env;
  database: Database;
  authSecret: string;
  storage: ImageStorage;
  redis?: Redis | undefined;
  now?: () => Date;
  /**
   * Milliseconds on a monotonic clock (performance.now by default) for durations a wall-clock step
   * must not stretch or cut: the catalogue cache's TTL (decision 032). Tests move it.
   */
  monotonicNow?: () => number;
  /** Default: Stripe when STRIPE_SECRET_KEY is set, else the built-in test gateway (DESIGN §2). */
  gateway?: PaymentGateway | undefined;
  webRoot?: string;
  logger?: boolean;
  /** Where log lines go (default stdout), after personal data is scrubbed; tests read them here. */
  logStream?: LogDestination | undefined;
  /** Moved by server.ts on SIGTERM (modules/health/lifecycle.ts); running when omitted. */
  lifecycle?: Lifecycle;
  /** Prometheus registry (plugins/metrics.ts); other modules add their gauges to it. */
  metrics?: Registry;
}

export interface App {
  app: ReturnType<typeof Fastify>;
  auth: Auth;
  /** Settles charges nobody came back for (decision 010); runs every RECONCILE_INTERVAL_SECONDS. */
  reconciler: Reconciler;
  /** Releases shares, settles payouts in flight and runs scheduled payouts (decision 040); tests call runOnce(). */
  payoutJob: PayoutJob;
  /** Queues reminders of sessions starting soon (decision 021); tests call runOnce(). */
  sessionReminders: ReturnType<typeof createSessionReminders>;
  /** Cancels sections under their minimum at their deadline (decision 052); tests call runOnce(). */
  sectionCancellations: ReturnType<typeof createSectionCancellationJob>;
  /** Offers free seats to waiting lists and expires unclaimed offers (decision 051); tests call runOnce(). */
  waitlistJob: ReturnType<typeof createWaitlistJob>;
  lifecycle: Lifecycle;
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { env, database } = deps;
  const now = deps.now ?? (() => new Date());
  const db = database.db;

  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(env.LOG_LEVEL, deps.logStream, env.logFormat),
    // One line per request instead of two, written by logEveryResponse (decision 035).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: env.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: sendClientError,
    // While closing, lifecyclePlugin answers new requests with 503 in our error envelope.
    return503OnClosing: false,
  });
  // Before any route: every route is recorded and its declared access enforced (decision 025).
  registerAccess(app);
  if (deps.logger !== false && env.LOG_REQUESTS) logEveryResponse(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Synchronous, as every hook on the path of every request (decision 036).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  const gateway = deps.gateway ?? createGateway(env, db, now);
  // Notifications reach this instance's streams and, through Redis, every other's (decision 047).
  const live = createLiveNotifications({ redis: deps.redis, log: app.log });
  // How the earnings ledger splits and holds each paid line (decision 039).
  const ledger = {
    platformBasisPoints: percentToBasisPoints(env.PLATFORM_FEE_PERCENT),
    refundWindowDays: env.REFUND_WINDOW_DAYS,
  };
  // Waitlists of full sections (decision 051): seats freed by a refund or a removed cart line are
  // offered at once; the job (jobs.ts) offers the rest and passes unclaimed offers on.
  const waitlistDeps = {
    db,
    now,
    publicUrl: env.publicUrl,
    notifications: live,
    offerMinutes: env.WAITLIST_OFFER_MINUTES,
  };
  const seatsFreed = seatsFreedBy(waitlistDeps, app.log);
  // Without SMTP, mail waits in the outbox; outside production admins can read it there.
  const mailboxEnabled = !env.SMTP_URL && env.NODE_ENV !== 'production';
  const isStripe = gateway.name === 'stripe';
  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  const lifecycle: Lifecycle = deps.lifecycle ?? { phase: 'running' };
  await app.register(lifecyclePlugin, { lifecycle });
  const metrics = deps.metrics ?? createMetricsRegistry();
  registerMailMetrics(metrics, db);
  await app.register(metricsPlugin, {
    registry: metrics,
    token: env.METRICS_TOKEN,
    // drizzle's node-postgres database keeps its pg.Pool as $client.
    pool: database.kind === 'postgres' ? (db as unknown as { $client: PoolStats }).$client : undefined,
  });
  await app.register(securityPlugin, {
    stripeJsUrl: isStripe ? env.STRIPE_JS_URL : null,
    secure: env.publicUrl.startsWith('https://'),
  });
  await app.register(csrfPlugin, { publicUrl: env.publicUrl });
  await app.register(swaggerPlugin, { publicUrl: env.publicUrl });

  const auth = createAuth({
    db,
    secret: deps.authSecret,
    publicUrl: env.publicUrl,
    adminEmails: env.ADMIN_EMAILS,
    log: app.log,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }
        : undefined,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET }
        : undefined,
  });
  const tokens = createTokenService(deps.authSecret, now);
  await app.register(authPlugin, { db, auth, tokens, now });

  const checks: Record<string, ReadinessCheck> = { database: database.ping };
  const optional: Record<string, ReadinessCheck> = {};
  const redis = deps.redis;
  if (redis) optional.redis = () => pingRedis(redis);
  if (!env.S3_BUCKET) optional.storage = checkDirectoryWritable(env.uploadDir);
  if (database.kind === 'pglite') checks.dataDir = checkDirectoryWritable(env.dataDir);
  await app.register(healthRoutes, { checks, optional, metrics, timeoutMs: env.READY_CHECK_TIMEOUT_MS, lifecycle });
  // One lockout for every place a password is tried: sign-in, change-password, account deletion.
  const loginFailures = createPasswordLockout(db, {
    points: env.RATE_LIMIT_LOGIN_FAILURES,
    windowSeconds: env.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
  });
  await app.register(authRoutes, {
    db,
    now,
    auth,
    tokens,
    publicUrl: env.publicUrl,
    limits: {
      authPerIp: createLimiter({
        name: 'auth-ip',
        points: env.RATE_LIMIT_AUTH_PER_MINUTE,
        durationSeconds: 60,
        redis: deps.redis,
      }),
      loginFailures,
      // Verification and reset mails per address (decision 014): a mailbox
      // cannot be flooded, and the per-address cap above still holds for each client.
      mailRequests: createLimiter({
        name: 'mail-requests',
        points: env.RATE_LIMIT_MAIL_REQUESTS,
        durationSeconds: env.RATE_LIMIT_MAIL_WINDOW_SECONDS,
        redis: deps.redis,
        message: 'You asked for several e-mails just now. Please wait a few minutes and try again.',
      }),
      tokens: createLimiter({
        name: 'tokens',
        points: env.RATE_LIMIT_TOKENS_PER_MINUTE,
        durationSeconds: 60,
        redis: deps.redis,
      }),
    },
    providers: {
      google: Boolean(env.GOOGLE_CLIENT_ID),
      oidc: env.OIDC_ISSUER ? { name: env.OIDC_NAME } : null,
    },
    payments: {
      gateway: gateway.name,
      publishableKey: gateway.publishableKey,
      stripeJsUrl: isStripe ? env.STRIPE_JS_URL : null,
    },
    mailbox: mailboxEnabled,
  });

  // Feature modules (STYLE.md: modules/<feature>/<feature>.routes.ts) register here.
  await app.register(enrollmentsRoutes, {
    db,
    storage: deps.storage,
    now,
    seatHoldMinutes: env.SEAT_HOLD_MINUTES,
    seatsFreed,
  });
  // Unusable coupon codes at checkout, per account and per client address: codes cannot be
  // guessed by the thousand, and every unusable code answers alike (coupons.service.ts).
  const couponFailure = (name: string, points: number) =>
    createLimiter({
      name,
      points,
      durationSeconds: env.RATE_LIMIT_COUPON_WINDOW_SECONDS,
      redis: deps.redis,
      message: (seconds) => `${COUPON_MESSAGES.tooManyAttempts} ${tryAgainIn(seconds)}`,
      fields: ['couponCode'],
    });
  await app.register(paymentsRoutes, {
    db,
    gateway,
    now,
    publicUrl: env.publicUrl,
    notifications: live,
    ledger,
    seatHoldMinutes: env.SEAT_HOLD_MINUTES,
    couponFailures: {
      perAccount: couponFailure('coupon-failures-account', env.RATE_LIMIT_COUPON_FAILURES),
      perIp: couponFailure('coupon-failures-ip', env.RATE_LIMIT_COUPON_FAILURES_PER_IP),
    },
  });
  await app.register(refundsRoutes, {
    deps: {
      db,
      gateway,
      now,
      publicUrl: env.publicUrl,
      notifications: live,
      refundWindowDays: env.REFUND_WINDOW_DAYS,
      seatsFreed,
    },
  });
  await app.register(paymentHistoryRoutes, { db });
  const earningsDeps = {
    db,
    gateway,
    now,
    publicUrl: env.publicUrl,
    ledger,
    schedule: env.PAYOUT_SCHEDULE,
    minimumCents: env.PAYOUT_MINIMUM_CENTS,
  };
  await app.register(earningsRoutes, { deps: earningsDeps });
  await app.register(payoutsRoutes, { deps: earningsDeps });
  if (isTestGateway(gateway)) await app.register(testGatewayPayoutRoutes, { deps: { ...earningsDeps, gateway } });
  await app.register(couponsRoutes, { db, now });
  await app.register(reviewsRoutes, { db, now });
  await app.register(teacherRequestsRoutes, { db, now, publicUrl: env.publicUrl, notifications: live });
  limitSharpThreads(env.UPLOAD_CONCURRENCY);
  await app.register(uploadsRoutes, {
    db,
    storage: deps.storage,
    limits: {
      quotaBytes: env.UPLOAD_QUOTA_MB * 1024 * 1024,
      queue: createProcessingQueue({ concurrency: env.UPLOAD_CONCURRENCY, maxQueued: env.UPLOAD_QUEUE_LENGTH }),
      now,
    },
    uploadsPerUser: createLimiter({
      name: 'uploads',
      points: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
      durationSeconds: 60,
      redis: deps.redis,
      message: UPLOAD_MESSAGES.rateLimited,
    }),
  });
  await app.register(catalogueCachePlugin, {
    ttlSeconds: env.CATALOGUE_CACHE_TTL_SECONDS,
    now: deps.monotonicNow ?? (() => performance.now()),
  });
  await app.register(classesRoutes, { db, storage: deps.storage, now, publicUrl: env.publicUrl, notifications: live });
  await app.register(contentRoutes, {
    deps: {
      db,
      storage: deps.storage,
      now,
      publicUrl: env.publicUrl,
      meetingLinkOpenMinutes: env.MEETING_LINK_OPEN_MINUTES,
      materialMaxBytes: Math.round(env.MATERIAL_MAX_MB * 1024 * 1024),
      materialQuotaBytes: env.MATERIAL_QUOTA_MB * 1024 * 1024,
      materialUploadsPerUser: createLimiter({
        name: 'material-uploads',
        points: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
        durationSeconds: 60,
        redis: deps.redis,
        message: UPLOAD_MESSAGES.materialRateLimited,
      }),
    },
  });
  await app.register(sectionsRoutes, {
    deps: { db, now },
    changes: {
      db,
      gateway,
      now,
      publicUrl: env.publicUrl,
      notifications: live,
      refundWindowDays: env.REFUND_WINDOW_DAYS,
    },
  });
  await app.register(waitlistsRoutes, { deps: waitlistDeps });
  await app.register(usersRoutes, { db, now, passwordFailures: loginFailures });
  await app.register(moderationRoutes, {
    db,
    notifications: live,
    now,
    publicUrl: env.publicUrl,
    reportsPerUser: createLimiter({
      name: 'reports',
      points: env.RATE_LIMIT_REPORTS_PER_HOUR,
      durationSeconds: 60 * 60,
      redis: deps.redis,
      message: 'Too many reports; try again later',
    }),
  });
  await app.register(notificationsRoutes, {
    db,
    now,
    live,
    streamsPerUser: env.NOTIFICATION_STREAMS_PER_USER,
    heartbeatSeconds: env.NOTIFICATION_HEARTBEAT_SECONDS,
  });
  // Messages and announcements share one hourly limit per person (decisions 045, 050).
  const messagesPerUser = createLimiter({
    name: 'messages',
    points: env.RATE_LIMIT_MESSAGES_PER_HOUR,
    durationSeconds: 60 * 60,
    redis: deps.redis,
    message: MESSAGE_MESSAGES.rateLimited,
  });
  await app.register(messagesRoutes, {
    db,
    now,
    publicUrl: env.publicUrl,
    notifications: live,
    messagesPerUser,
  });
  await app.register(announcementsRoutes, {
    db,
    now,
    publicUrl: env.publicUrl,
    messagesPerUser,
    notifications: live,
  });
  await app.register(auditRoutes, { db });
  await app.register(statsRoutes, { db, now });
  await app.register(mailRoutes, { db, mailboxEnabled });

  const webRoot = deps.webRoot ?? DEFAULT_WEB_ROOT;
  await app.register(staticWebPlugin, {
    root: webRoot,
    renderer: await loadServerRenderer(serverEntryOf(webRoot), app.log),
    sharedPages: app.catalogueCache,
    publicUrl: env.publicUrl,
    // A shared class page link shows the class: its title and image in the link's preview.
    pageMeta: async (route, params) =>
      route === '/classes/:id' && params.id ? getClassPageMeta(db, deps.storage, params.id) : null,
  });

  const { reconciler, sessionReminders, payoutJob, sectionCancellations, waitlistJob } = registerJobs(app, {
    env,
    db,
    waitlist: waitlistDeps,
    storage: deps.storage,
    gateway,
    now,
    ledger,
    notifications: live,
  });
  return { app, auth, reconciler, payoutJob, sessionReminders, sectionCancellations, waitlistJob, lifecycle };
}
