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

/**
 * Security headers with a strict Content-Security-Policy the web app runs under (no inline
 * scripts, no eval), and response compression.
 */
export const securityPlugin = fp(async function security(
  app: FastifyInstance,
  opts: { stripe: boolean; secure: boolean },
) {
  const stripeScript = opts.stripe ? ['https://js.stripe.com'] : [];
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripeScript],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(opts.stripe ? ['https://api.stripe.com'] : [])],
        frameSrc: opts.stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : ["'none'"],
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
