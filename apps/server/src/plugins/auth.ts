import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fromNodeHeaders } from 'better-auth/node';
import type { Db } from '../db/client.ts';
import type { Viewer } from '../lib/authorize.ts';
import type { Auth } from '../modules/auth/auth.ts';
import { findTokenViewer } from '../modules/auth/sessions.public.ts';
import type { TokenService } from '../modules/auth/token.ts';
import { findViewerUser } from '../modules/users/contact.public.ts';

const ANONYMOUS: Promise<Viewer | null> = Promise.resolve(null);

/**
 * Who is calling: `Authorization: Bearer <token>` (spec §7) or the better-auth session cookie.
 * Either way the user row is read again, so a deleted user is anonymous at once (DESIGN §1.2); a
 * token also needs its session to be live (decision 009). The reads belong to the auth module
 * (sessions) and the users module (the user row), decision 015.
 */
export const authPlugin = fp(
  async function auth(app: FastifyInstance, opts: { db: Db; auth: Auth; tokens: TokenService; now: () => Date }) {
    const cache = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

    async function resolve(request: FastifyRequest): Promise<Viewer | null> {
      const authorization = request.headers.authorization;
      if (authorization?.startsWith('Bearer ')) {
        const claims = await opts.tokens.verify(authorization.slice('Bearer '.length).trim());
        const viewer = claims ? await findTokenViewer(opts.db, claims, opts.now()) : null;
        if (viewer) return viewer;
        // An invalid token falls through to the cookie: a stale token must not mask a live session.
      }
      if (!request.headers.cookie) return null;
      const session = await opts.auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
      if (!session) return null;
      const user = await findViewerUser(opts.db, session.user.id);
      return user
        ? { ...user, sessionId: session.session.id, sessionCreatedAt: new Date(session.session.createdAt) }
        : null;
    }

    app.decorateRequest('getViewer', function getViewer(this: FastifyRequest) {
      // No credentials, no lookup: an anonymous request (the catalogue's most) costs nothing here (decision 036).
      if (this.headers.authorization === undefined && this.headers.cookie === undefined) return ANONYMOUS;
      let pending = cache.get(this);
      if (!pending) {
        pending = resolve(this);
        cache.set(this, pending);
      }
      return pending;
    });
  },
  { name: 'auth' },
);
