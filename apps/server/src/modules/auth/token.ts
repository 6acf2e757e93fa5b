import { SignJWT, jwtVerify } from 'jose';

/** The session token of spec §4 (POST /api/jwt): HS256, one hour, bound to the user id. */
export const TOKEN_TTL_SECONDS = 60 * 60;
const ISSUER = 'skillhive';
const AUDIENCE = 'skillhive-api';

export interface TokenService {
  issue(user: { id: string; email: string }): Promise<string>;
  /** The user id the token was issued to, or null when it is invalid or expired. */
  verify(token: string): Promise<string | null>;
}

export function createTokenService(secret: string, now: () => Date = () => new Date()): TokenService {
  const key = new TextEncoder().encode(`${secret}:api-token`);
  return {
    async issue(user) {
      const iat = Math.floor(now().getTime() / 1000);
      return new SignJWT({ email: user.email })
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
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
