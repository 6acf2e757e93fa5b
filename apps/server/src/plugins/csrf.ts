import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ErrorCode } from '../lib/app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery: a browser attaches the session cookie to a form or fetch another
 * site sends us, so an unsafe request carrying a cookie must come from our own pages. It is
 * refused when its Origin is present and not PUBLIC_URL's, or when the browser says it comes from
 * another site (Sec-Fetch-Site: cross-site; same-site too, a sibling subdomain is not us, unless
 * its Origin is ours). Requests without a cookie (Bearer tokens, the Stripe webhook) cannot ride
 * on a session and are let through; better-auth's own Origin check stays on behind this one.
 */
export const csrfPlugin = fp(
  async function csrf(app: FastifyInstance, opts: { publicUrl: string }) {
    const ours = new URL(opts.publicUrl).origin;
    // Synchronous: it runs on every request and waits for nothing (decision 036).
    app.addHook('onRequest', (request, _reply, done) => {
      if (SAFE_METHODS.has(request.method) || !request.headers.cookie) {
        done();
        return;
      }
      const origin = request.headers.origin;
      const site = request.headers['sec-fetch-site'];
      const fromUs = origin === ours;
      if ((origin !== undefined && !fromUs) || site === 'cross-site' || (site === 'same-site' && !fromUs)) {
        done(new AppError(ErrorCode.FORBIDDEN, 'Cross-site requests are not allowed'));
        return;
      }
      done();
    });
  },
  { name: 'csrf' },
);
