import type { Db } from '../../db/client.ts';
import { loginFailures } from '../../db/schema/auth.ts';
import { createLimiter, type Limiter } from '../../lib/rate-limit.ts';

/**
 * One lockout for every place a password is tried: sign-in, change-password, a change of e-mail,
 * account deletion (decision 009). Counted in the database, not Redis (decision 028): every
 * password check needs the database anyway, so an outage of Redis neither forgets a lockout nor
 * gives each instance fresh guesses.
 */
export function createPasswordLockout(db: Db, options: { points: number; windowSeconds: number }): Limiter {
  return createLimiter({
    name: 'login-failures',
    points: options.points,
    durationSeconds: options.windowSeconds,
    database: { client: db, table: loginFailures },
  });
}
