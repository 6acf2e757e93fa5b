import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ErrorBody } from '@skillhive/shared/contracts/errors';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import { AUTH_BASE_PATH } from './identity-gate.ts';

/*
 * The one error envelope under /api/auth/* (DESIGN §3): better-auth's own failures, and ours, are
 * answered as {error:{code,message},requestId}, with better-auth's top-level {code, message}
 * beside it for its web client (plugins/openapi-access.ts documents the one shape).
 */

export function validationError(error: z.core.$ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return new AppError(ErrorCode.VALIDATION, Object.values(fields)[0] ?? 'Invalid request', { fields });
}

/** better-auth's statuses → our error codes (DESIGN §3). */
function codeForStatus(status: number): ErrorCode {
  if (status === 400) return ErrorCode.VALIDATION;
  if (status === 401) return ErrorCode.UNAUTHENTICATED;
  if (status === 403) return ErrorCode.FORBIDDEN;
  if (status === 404) return ErrorCode.NOT_FOUND;
  if (status === 409) return ErrorCode.CONFLICT;
  if (status === 429) return ErrorCode.RATE_LIMITED;
  if (status === 503) return ErrorCode.UNAVAILABLE;
  return status >= 500 ? ErrorCode.INTERNAL : ErrorCode.VALIDATION;
}

/** How long a client should wait before retrying a sign-up the database could not store. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * better-auth answers 422 both for a duplicate e-mail and for a user it failed to insert. Only the
 * duplicate is a conflict (DESIGN §3: 409); a failed insert is the database's fault, so 503 and
 * the client retries. Any other 422 is bad input.
 */
export function statusFor422(authCode: unknown): number {
  if (typeof authCode !== 'string') return 400;
  if (authCode.startsWith('USER_ALREADY_EXISTS')) return 409;
  if (authCode.startsWith('FAILED_TO_CREATE')) return 503;
  return 400;
}

/** better-auth's error codes that belong to one form field, for the web forms. */
const FIELD_OF_AUTH_CODE: Record<string, string> = {
  USER_ALREADY_EXISTS: 'email',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email',
  INVALID_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
};

/**
 * Errors under /api/auth/* carry the standard shape {error:{code,message},requestId} and, beside
 * it, better-auth's own top-level {code, message}, which its web client reads.
 */
export type AuthErrorBody = ErrorBody & { code: string; message: string };

export function toAuthErrorBody(
  status: number,
  requestId: string,
  upstream: { code?: unknown; message?: unknown } | null,
): AuthErrorBody {
  const authCode = typeof upstream?.code === 'string' ? upstream.code : codeForStatus(status);
  const message =
    status === 503
      ? 'We could not complete this just now. Please try again in a moment.'
      : status >= 500
        ? 'Something went wrong on our side. Please try again.'
        : typeof upstream?.message === 'string' && upstream.message !== ''
          ? upstream.message
          : 'The request could not be completed';
  const field = status < 500 ? FIELD_OF_AUTH_CODE[authCode] : undefined;
  return {
    error: { code: codeForStatus(status), message, ...(field ? { fields: { [field]: message } } : {}) },
    requestId,
    code: authCode,
    message,
  };
}

/** A PostgreSQL unique violation (23505), however the driver and the ORM wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Our own failures under /api/auth/* (validation, rate limits) also carry better-auth's top-level fields. */
export function addAuthErrorFields(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !request.url.startsWith(`${AUTH_BASE_PATH}/`))
      return payload;
    const body = parseJson(payload) as Partial<AuthErrorBody> | null;
    if (!body?.error || body.message !== undefined) return payload;
    return JSON.stringify({ ...body, code: body.error.code, message: body.error.message });
  });
}
