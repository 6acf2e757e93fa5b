import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The built web app: hashed assets cached for a year as immutable, everything else revalidated,
 * and index.html for any non-API GET the router knows nothing of (SPA fallback).
 */
export const staticWebPlugin = fp(async function staticWeb(app: FastifyInstance, opts: { root: string }) {
  const index = path.join(opts.root, 'index.html');
  if (!existsSync(index)) {
    app.log.warn(`web app not built (${index} missing): run "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const isHashed = filePath.startsWith(path.join(opts.root, 'assets') + path.sep);
      reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.decorate('spaIndexAvailable', true);
});

declare module 'fastify' {
  interface FastifyInstance {
    spaIndexAvailable?: boolean;
  }
}
