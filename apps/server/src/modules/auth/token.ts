import { SignJWT, jwtVerify } from 'jose';

/**
 * The session token of spec §4 (POST /api/jwt): HS256, at most one hour, bound to the user id and
 * to the better-auth session it was issued against (`sid`): it ends when that session ends
 * (decision 009; the check is in plugins/auth.ts).
 */
export const TOKEN_TTL_SECONDS = 60 * 60;
const ISSUER = 'skillhive';
const AUDIENCE = 'skillhive-api';

export interface TokenClaims {
  userId: string;
  sessionId: string;
}

export interface TokenService {
  issue(user: { id: string; email: string }, sessionId: string): Promise<string>;
  /** Whom and which session the token was issued to, or null when it is invalid, expired or has no session. */
  verify(token: string): Promise<TokenClaims | null>;
}

export function createTokenService(secret: string, now: () => Date = () => new Date()): TokenService {
  const key = new TextEncoder().encode(`${secret}:api-token`);
  return {
    async issue(user, sessionId) {
      const iat = Math.floor(now().getTime() / 1000);
      return new SignJWT({ email: user.email, sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now(),
        });
        const { sub, sid } = payload;
        return typeof sub === 'string' && typeof sid === 'string' ? { userId: sub, sessionId: sid } : null;
      } catch {
        return null;
      }
    },
  };
}
