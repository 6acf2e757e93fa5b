import type { FastifyRequest } from 'fastify';
import { AppError, ErrorCode, forbidden, unauthenticated } from './app-error.ts';

/** The signed-in caller, with roles read fresh from the database on every request. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
  image: string | null;
  phone: string | null;
  isAdmin: boolean;
  isTeacher: boolean;
  /** Whether the user followed the link sent to their e-mail address (better-auth's flag). */
  emailVerified: boolean;
  /** The better-auth session the call came with: the cookie's, or the one a Bearer token names. */
  sessionId: string;
  sessionCreatedAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolves the session cookie or Bearer token once per request; null when anonymous. */
    getViewer(): Promise<Viewer | null>;
  }
}

/** Any signed-in user (spec §6 "login"). */
export async function requireViewer(request: FastifyRequest): Promise<Viewer> {
  const viewer = await request.getViewer();
  if (!viewer) throw unauthenticated();
  return viewer;
}

/** The message of a 403 email_not_verified; the web app offers to send the link again beside it. */
export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Verify your e-mail address first: follow the link we sent you, or ask for a new one from your profile.';

/**
 * A signed-in user whose e-mail address is verified: applying to teach and paying need one
 * (decision 014), so every account that teaches or pays can be reached.
 */
export async function requireVerifiedViewer(request: FastifyRequest): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (!viewer.emailVerified) throw new AppError(ErrorCode.EMAIL_NOT_VERIFIED, EMAIL_NOT_VERIFIED_MESSAGE);
  return viewer;
}

export async function requireAdmin(request: FastifyRequest): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (!viewer.isAdmin) throw forbidden('Only admins can do this');
  return viewer;
}

export async function requireTeacher(request: FastifyRequest): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (!viewer.isTeacher) throw forbidden('Only teachers can do this');
  return viewer;
}

/** Routes keyed by e-mail (spec §7) answer for the caller's own e-mail, or for an admin. */
export async function requireSelfOrAdmin(request: FastifyRequest, email: string): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (viewer.email !== email.toLowerCase() && !viewer.isAdmin) throw forbidden();
  return viewer;
}
