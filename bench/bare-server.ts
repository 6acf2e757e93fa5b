import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The framework limit: a bare Fastify app (the repo's fastify, no plugins, no logger) that answers
 * the catalogue path with the very bytes and headers the real server sent for page 1, captured
 * once by the bench. Started as its own process, like the real server. With BARE_STACK=security
 * it also registers the app's security plugin (helmet, compression), to measure that layer.
 */
const body = readFileSync(process.env.BARE_BODY_FILE ?? '');
const headers = JSON.parse(process.env.BARE_HEADERS ?? '{}') as Record<string, string>;
const port = Number(process.env.PORT ?? 0);

const app = Fastify({ logger: false });
if (process.env.BARE_STACK === 'security') {
  // The app's own security plugin (helmet headers + response compression), to show its share.
  const { securityPlugin } = await import('../apps/server/src/plugins/security.ts');
  await app.register(securityPlugin, { stripeJsUrl: null, secure: false });
}
app.get('/api/classes', async (_request, reply) => reply.headers(headers).send(body));
app.get('/api/ready', async () => ({ status: 'ready' }));

const close = () => {
  void app.close().then(() => process.exit(0));
};
process.once('SIGTERM', close);
process.once('SIGINT', close);

await app.listen({ host: '127.0.0.1', port });
