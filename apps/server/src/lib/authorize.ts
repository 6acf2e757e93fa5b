import type { FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from './app-error.ts';

/** The signed-in caller, with roles read fresh from the database on every request. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
  image: string | null;
  phone: string | null;
  isAdmin: boolean;
  isTeacher: boolean;
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
