import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The one place that reads process.env (STYLE.md). Every setting of DESIGN §5 is validated here
 * once at start-up; a bad value stops the process with a readable message.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emailList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email('ADMIN_EMAILS must be comma-separated e-mail addresses')));

/** Stripe.js of the release train `@stripe/stripe-js` 10 types (what its own loader would fetch). */
export const DEFAULT_STRIPE_JS_URL = 'https://js.stripe.com/endive/stripe.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Script for the payment page: https, or plain http only from this machine (a local fake). */
function isScriptUrlAllowed(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('localhost'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
      .optional(),
    AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
    ADMIN_EMAILS: emailList,
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_NAME: z.string().min(1).default('OpenID Connect'),
    STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
    /**
     * Which payment gateway takes the money: 'stripe' (needs the STRIPE_* keys) or 'test' (the
     * built-in gateway that accepts Stripe's test cards). Default: stripe when its keys are set,
     * else test — except in production, where the test gateway must be asked for by name.
     */
    PAYMENTS_GATEWAY: z.enum(['stripe', 'test']).optional(),
    /** Only for tests and local fakes of Stripe's API: where the SDK sends its requests. */
    STRIPE_API_BASE: z.url().optional(),
    /**
     * Where the payment page loads Stripe.js from (decision 017). Stripe's own address by default,
     * the release train the web app's @stripe/stripe-js types describe; another address (a local
     * fake in the e2e suite) replaces Stripe's hosts in the Content-Security-Policy.
     */
    STRIPE_JS_URL: z
      .url()
      .default(DEFAULT_STRIPE_JS_URL)
      .refine(
        isScriptUrlAllowed,
        'STRIPE_JS_URL must be an https:// URL (http:// only on 127.0.0.1, ::1 or localhost)',
      ),
    /** How many days after paying a student may ask for a refund of a class. */
    REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(14),
    /** The platform's fee on every paid line, in percent with at most two decimals (decision 039); an admin may set a teacher's own. */
    PLATFORM_FEE_PERCENT: z.coerce
      .number()
      .min(0)
      .max(100)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'PLATFORM_FEE_PERCENT takes at most two decimals')
      .default(20),
    /** How often the payout job pays teachers their available balance (decision 040): each UTC day, or each UTC week from Monday. */
    PAYOUT_SCHEDULE: z.enum(['daily', 'weekly']).default('weekly'),
    /** A teacher's available balance is paid out only from this amount on, in integer cents. */
    PAYOUT_MINIMUM_CENTS: z.coerce.number().int().min(1).default(2_000),
    /** How often the money-out job looks for shares to release, payouts to run and payouts to settle (0 disables). */
    PAYOUT_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
    UPLOAD_DIR: z.string().min(1).optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_PUBLIC_URL: z.url().optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
      .optional(),
    /** Fault tolerance: bounded waits so a sick dependency yields 503, not a hang. */
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    DB_EMBEDDED_WAIT_MS: z.coerce.number().int().min(100).default(10_000),
    DB_EMBEDDED_FSYNC: bool.default(true),
    REDIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).default(500),
    READY_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
    /** The main thread running no JavaScript this long means a wedged engine: exit (0 disables). */
    STALL_EXIT_MS: z.coerce.number().int().min(0).default(30_000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    TRUST_PROXY: z.string().default('false'),
    /** E-mail delivery (smtp:// or smtps://). Without it mail waits in the outbox (mailbox page outside production). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('SkillHive <no-reply@skillhive.test>'),
    /** How often the mail worker looks at the outbox. */
    MAIL_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5_000),
    SEED: bool.optional(),
    /** Bearer token for GET /metrics (Prometheus); without it /metrics answers 404. */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `json` lines (pino's, for a log collector) or `short` readable ones; unset: short in development only. */
    LOG_FORMAT: z.enum(['json', 'short']).optional(),
    /** The one line per request (decision 035); false keeps only the app's own lines. */
    LOG_REQUESTS: bool.default(true),
    /** Rate limits against password guessing and floods (decision 009; this app's README, "Rate limits"). */
    RATE_LIMIT_LOGIN_FAILURES: z.coerce.number().int().min(1).default(5),
    RATE_LIMIT_LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(100),
    RATE_LIMIT_TOKENS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Verification and password-reset mails per e-mail address within the window. */
    RATE_LIMIT_MAIL_REQUESTS: z.coerce.number().int().min(1).default(3),
    RATE_LIMIT_MAIL_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    /** Coupon codes at checkout that turn out unusable, per account and per client address, in the window. */
    RATE_LIMIT_COUPON_FAILURES: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_COUPON_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_COUPON_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    /** Uploads: rate, quota, bounded processing and collection of unused images (uploads module). */
    RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /** Reports a person may file per hour (decision 043): the queue is read by people. */
    RATE_LIMIT_REPORTS_PER_HOUR: z.coerce.number().int().min(1).default(20),
    /** Messages a person may send per hour (decision 045): a mail goes out with each. */
    RATE_LIMIT_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).default(60),
    /**
     * Live notifications (decision 047): open streams one person may hold on one instance (a
     * browser opens one per tab), and how often a quiet stream sends a comment so proxies keep it.
     */
    NOTIFICATION_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
    NOTIFICATION_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(20),
    UPLOAD_QUOTA_MB: z.coerce.number().positive().default(100),
    UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).default(2),
    UPLOAD_QUEUE_LENGTH: z.coerce.number().int().min(0).default(8),
    UPLOAD_GC_GRACE_HOURS: z.coerce.number().min(0).default(24),
    UPLOAD_GC_INTERVAL_MINUTES: z.coerce.number().min(0).default(60),

    /**
     * How long the public catalogue's pages and totals are shared before the database is read
     * again (plugins/catalogue-cache.ts); 0 turns the cache off.
     */
    CATALOGUE_CACHE_TTL_SECONDS: z.coerce.number().min(0).max(3_600).default(1),

    /** Class content (decision 021): a session's meeting link is shown to paid students this long before its start. */
    MEETING_LINK_OPEN_MINUTES: z.coerce.number().int().min(0).max(1_440).default(15),
    /** The largest class material (PDF or image) a teacher may upload, in MB. */
    MATERIAL_MAX_MB: z.coerce.number().positive().max(100).default(10),
    /** Stored class-material megabytes per teacher (decision 027); the upload that crosses it is the last accepted. */
    MATERIAL_QUOTA_MB: z.coerce.number().positive().default(200),
    /** How long before a session its paid students are e-mailed a reminder. */
    SESSION_REMINDER_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
    /**
     * How often the reminder job looks for sessions starting soon, and drops started sessions from
     * the sections' schedule summaries (decision 053); 0 disables it.
     */
    SESSION_REMINDER_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),

    /**
     * How long carting a class of a section with seats, and creating its payment intent, holds a
     * seat (decision 042); an expired hold is a free seat again.
     */
    SEAT_HOLD_MINUTES: z.coerce.number().int().min(1).max(1_440).default(15),
    /**
     * How often the job cancels sections whose enrollment deadline passed below their minimum, and
     * refunds their students (decision 052); 0 disables it.
     */
    SECTION_CANCEL_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
    /**
     * How long a seat offered to the first person on a full section's waiting list is held for
     * them (decision 051); unclaimed, it passes to the next.
     */
    WAITLIST_OFFER_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
    /** How often the waitlist job offers free seats and expires unclaimed offers; 0 disables it. */
    WAITLIST_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),

    /** How often the payment reconciler re-reads unsettled intents from the gateway; 0 disables it (decision 010). */
    RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  })
  .superRefine((env, ctx) => {
    const pairs: [string, string][] = [
      ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
      ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'],
      ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
      ['OIDC_ISSUER', 'OIDC_CLIENT_ID'],
      ['OIDC_ISSUER', 'OIDC_CLIENT_SECRET'],
      ['S3_BUCKET', 'S3_ACCESS_KEY_ID'],
      ['S3_BUCKET', 'S3_SECRET_ACCESS_KEY'],
    ];
    const record = env as Record<string, unknown>;
    for (const [a, b] of pairs) {
      if (Boolean(record[a]) !== Boolean(record[b])) {
        ctx.addIssue({ code: 'custom', path: [record[a] ? b : a], message: `${a} and ${b} must be set together` });
      }
    }
    if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'AUTH_SECRET is required in production' });
    }
    if (env.PAYMENTS_GATEWAY === 'stripe' && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS_GATEWAY'],
        message: 'PAYMENTS_GATEWAY=stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
      });
    }
    // A production server never takes test cards by accident (docs/SECURITY.md).
    if (env.NODE_ENV === 'production' && !env.STRIPE_SECRET_KEY && env.PAYMENTS_GATEWAY !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS_GATEWAY'],
        message:
          'production needs a real payment gateway: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and ' +
          'STRIPE_WEBHOOK_SECRET, or PAYMENTS_GATEWAY=test to take only test cards on purpose',
      });
    }
  });

export type RawEnv = z.infer<typeof EnvSchema>;

export interface Env extends RawEnv {
  /** Absolute data directory. */
  dataDir: string;
  /** The origin the app is reached at; better-auth's baseURL and trusted origin. */
  publicUrl: string;
  /** 'embedded' runs PGlite in DATA_DIR; 'postgres' uses DATABASE_URL. */
  databaseMode: 'embedded' | 'postgres';
  uploadDir: string;
  /** Fastify's trustProxy: false, true, a hop count, or a comma list of addresses/CIDRs. */
  trustProxy: boolean | string;
  /** The gateway that takes payments (PAYMENTS_GATEWAY, or what the keys imply). */
  paymentsGateway: 'stripe' | 'test';
  /** Whether the demo data is loaded into an empty database at start-up. */
  seedDemoData: boolean;
  /** LOG_FORMAT, or what NODE_ENV implies: production (and tests) log JSON. */
  logFormat: 'json' | 'short';
}

/**
 * The demo admin's e-mail. In development, when ADMIN_EMAILS is not set, it is the one admin
 * e-mail, so a newcomer's `npm start` shows every role; anywhere else the demo admin is a plain
 * account unless ADMIN_EMAILS names it: every demo account's password is published.
 */
export const DEMO_ADMIN_EMAIL = 'admin@skillhive.test';

export class EnvError extends Error {
  override name = 'EnvError';
}

function parseTrustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  return value;
}

/**
 * Reads `.env` into process.env when there is one (variables already set win, as with Node's
 * --env-file), and says whether it did: without one the server says once that it runs on the
 * defaults, instead of Node's ".env not found" on every start.
 */
export function loadDotEnvFile(file = '.env'): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/** Reads and validates the environment; throws EnvError listing every problem at once. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every setting.`);
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  const port = raw.PORT;
  const adminEmailsSet = cleaned.ADMIN_EMAILS !== undefined;
  return {
    ...raw,
    ADMIN_EMAILS: !adminEmailsSet && raw.NODE_ENV === 'development' ? [DEMO_ADMIN_EMAIL] : raw.ADMIN_EMAILS,
    paymentsGateway: raw.PAYMENTS_GATEWAY ?? (raw.STRIPE_SECRET_KEY ? 'stripe' : 'test'),
    // Never implied in production: there it takes SEED=true (DESIGN §5).
    seedDemoData: raw.SEED ?? (!raw.DATABASE_URL && raw.NODE_ENV === 'development'),
    logFormat: raw.LOG_FORMAT ?? (raw.NODE_ENV === 'development' ? 'short' : 'json'),
    dataDir,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    databaseMode: raw.DATABASE_URL ? 'postgres' : 'embedded',
    uploadDir: path.resolve(raw.UPLOAD_DIR ?? path.join(dataDir, 'uploads')),
    trustProxy: parseTrustProxy(raw.TRUST_PROXY),
  };
}

/**
 * AUTH_SECRET, or in development a random one generated once into DATA_DIR (DESIGN §5) so that
 * sessions survive restarts without anyone having to invent a secret.
 */
export function resolveAuthSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.join(env.dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(env.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
