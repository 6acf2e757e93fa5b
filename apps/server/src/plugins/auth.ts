import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fromNodeHeaders } from 'better-auth/node';
import type { Db } from '../db/client.ts';
import { schema } from '../db/client.ts';
import type { Viewer } from '../lib/authorize.ts';
import type { Auth } from '../modules/auth/auth.ts';
import type { TokenClaims, TokenService } from '../modules/auth/token.ts';

const VIEWER_COLUMNS = {
  id: schema.users.id,
  email: schema.users.email,
  name: schema.users.name,
  image: schema.users.image,
  phone: schema.users.phone,
  isAdmin: schema.users.isAdmin,
  isTeacher: schema.users.isTeacher,
  emailVerified: schema.users.emailVerified,
};

async function loadViewer(db: Db, userId: string, session: { id: string; createdAt: Date }): Promise<Viewer | null> {
  const [user] = await db.select(VIEWER_COLUMNS).from(schema.users).where(eq(schema.users.id, userId));
  return user ? { ...user, sessionId: session.id, sessionCreatedAt: session.createdAt } : null;
}

/**
 * The token's user, if the better-auth session the token names still exists, is unexpired and is
 * that user's (decision 009): sign-out, revocation, a password change and account deletion all
 * delete the row. One query: the session and the user row together.
 */
async function loadTokenViewer(db: Db, claims: TokenClaims, now: Date): Promise<Viewer | null> {
  const [user] = await db
    .select({ ...VIEWER_COLUMNS, sessionId: schema.sessions.id, sessionCreatedAt: schema.sessions.createdAt })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(
      and(
        eq(schema.sessions.id, claims.sessionId),
        eq(schema.sessions.userId, claims.userId),
        gt(schema.sessions.expiresAt, now),
      ),
    );
  return user ?? null;
}

/**
 * Who is calling: `Authorization: Bearer <token>` (spec §7) or the better-auth session cookie.
 * Either way the user row is read again, so a deleted user is anonymous at once (issue 3 §3); a
 * token also needs its session to be live (decision 009).
 */
export const authPlugin = fp(
  async function auth(app: FastifyInstance, opts: { db: Db; auth: Auth; tokens: TokenService; now: () => Date }) {
    const cache = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

    async function resolve(request: FastifyRequest): Promise<Viewer | null> {
      const authorization = request.headers.authorization;
      if (authorization?.startsWith('Bearer ')) {
        const claims = await opts.tokens.verify(authorization.slice('Bearer '.length).trim());
        const viewer = claims ? await loadTokenViewer(opts.db, claims, opts.now()) : null;
        if (viewer) return viewer;
        // An invalid token falls through to the cookie: a stale token must not mask a live session.
      }
      if (!request.headers.cookie) return null;
      const session = await opts.auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
      return session
        ? loadViewer(opts.db, session.user.id, {
            id: session.session.id,
            createdAt: new Date(session.session.createdAt),
          })
        : null;
    }

    app.decorateRequest('getViewer', function getViewer(this: FastifyRequest) {
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
