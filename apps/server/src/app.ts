import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Database } from './db/client.ts';
import type { Env } from './env.ts';
import type { ImageStorage } from './modules/uploads/storage.ts';
import { createLimiter } from './lib/rate-limit.ts';
import { createAuth, type Auth } from './modules/auth/auth.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createTokenService } from './modules/auth/token.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { enrollmentsRoutes } from './modules/enrollments/enrollments.routes.ts';
import { createGateway } from './modules/payments/create-gateway.ts';
import type { PaymentGateway } from './modules/payments/gateway.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { reviewsRoutes } from './modules/reviews/reviews.routes.ts';
import { classesRoutes } from './modules/classes/classes.routes.ts';
import { teacherRequestsRoutes } from './modules/teacher-requests/teacher-requests.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { securityPlugin } from './plugins/security.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { swaggerPlugin } from './plugins/swagger.ts';

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Everything the app needs from outside, passed in (STYLE.md): tests build it with real parts. */
export interface AppDeps {
  env: Env;
  database: Database;
  authSecret: string;
  storage: ImageStorage;
  redis?: Redis | undefined;
  now?: () => Date;
  /** Default: Stripe when STRIPE_SECRET_KEY is set, else the built-in test gateway (DESIGN §2). */
  gateway?: PaymentGateway | undefined;
  webRoot?: string;
  logger?: boolean;
}

export interface App {
  app: ReturnType<typeof Fastify>;
  auth: Auth;
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { env, database } = deps;
  const now = deps.now ?? (() => new Date());
  const db = database.db;

  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: env.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
          },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: env.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const gateway = deps.gateway ?? createGateway(env, db, now);
  const isStripe = gateway.name === 'stripe';
  await app.register(errorHandlerPlugin);
  await app.register(securityPlugin, { stripe: isStripe, secure: env.publicUrl.startsWith('https://') });
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
  await app.register(authPlugin, { db, auth, tokens });

  await app.register(healthRoutes, { ping: database.ping });
  await app.register(authRoutes, {
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
      loginFailures: createLimiter({
        name: 'login-failures',
        points: env.RATE_LIMIT_LOGIN_FAILURES,
        durationSeconds: env.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
        redis: deps.redis,
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
    payments: { gateway: gateway.name, publishableKey: gateway.publishableKey },
  });

  // Feature modules (STYLE.md: modules/<feature>/<feature>.routes.ts) register here.
  await app.register(enrollmentsRoutes, { db, storage: deps.storage });
  await app.register(paymentsRoutes, { db, gateway, now });
  await app.register(reviewsRoutes, { db, now });
  await app.register(teacherRequestsRoutes, { db, now });
  await app.register(uploadsRoutes, { db, storage: deps.storage });
  await app.register(classesRoutes, {
    db,
    storage: deps.storage,
    now,
    // In production, public catalogue pages and totals are shared for 1 s (classes.service
    // createShortCache; measured by bench/, BENCHMARKS.md).
    catalogueCacheMs: env.NODE_ENV === 'production' ? 1_000 : 0,
  });
  await app.register(usersRoutes, { db });
  await app.register(auditRoutes, { db });

  await app.register(staticWebPlugin, { root: deps.webRoot ?? DEFAULT_WEB_ROOT });
  return { app, auth };
}
