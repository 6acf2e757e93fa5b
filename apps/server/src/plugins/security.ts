import compress from '@fastify/compress';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The headers helmet sets with these options. They are the same for every response, but
 * @fastify/helmet builds a new helmet middleware on each request (parsing the CSP again), which
 * alone took ~40% of the throughput of a route answering fixed bytes (bench/, BENCHMARKS.md). So
 * helmet itself runs once, on a throw-away instance, and its headers are what every reply gets.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify({ logger: false });
    if (withHelmet) await probe.register(helmet, options);
    probe.get('/', async () => 'ok');
    const res = await probe.inject({ method: 'GET', url: '/' });
    await probe.close();
    return res.headers;
  };
  const plain = await answer(false);
  const secured = await answer(true);
  return Object.fromEntries(
    Object.entries(secured)
      .filter(([name, value]) => value !== undefined && String(plain[name]) !== String(value))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** Stripe.js's own origin, and the hosts Stripe documents for its CSP (the Payment Element, 3-D Secure). */
const STRIPE_ORIGIN = 'https://js.stripe.com';
const STRIPE_HOSTS = {
  script: [STRIPE_ORIGIN, 'https://*.js.stripe.com'],
  frame: [STRIPE_ORIGIN, 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/**
 * What the CSP opens for Stripe.js loaded from `stripeJsUrl` (decision 017): Stripe's hosts for
 * Stripe's own address; for any other address (a local fake) only that address's origin, which
 * then serves the script, its frames and its API calls.
 */
export function stripeCspSources(stripeJsUrl: string | null): { script: string[]; frame: string[]; connect: string[] } {
  if (!stripeJsUrl) return { script: [], frame: [], connect: [] };
  const origin = new URL(stripeJsUrl).origin;
  if (origin === STRIPE_ORIGIN) return STRIPE_HOSTS;
  return { script: [origin], frame: [origin], connect: [origin] };
}

/**
 * Security headers with a strict Content-Security-Policy the web app runs under (no inline
 * scripts, no eval), and response compression. `stripeJsUrl` is set only when the Stripe gateway
 * takes the payments.
 */
export const securityPlugin = fp(async function security(
  app: FastifyInstance,
  opts: { stripeJsUrl: string | null; secure: boolean },
) {
  const stripe = stripeCspSources(opts.stripeJsUrl);
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripe.script],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...stripe.connect],
        frameSrc: stripe.frame.length > 0 ? stripe.frame : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(opts.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Uploaded images and the API are same-origin; cross-origin isolation is not needed.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: opts.secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
});
