import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@skillhive/shared/contracts/errors';
import { DatabaseUnavailableError } from '../db/client.ts';
import { AppError, ErrorCode } from '../lib/app-error.ts';

/**
 * Errors Fastify meets before any route or hook runs (a URL that does not decode, a path parameter
 * longer than the router's limit): the `frameworkErrors` option of the Fastify factory sends them
 * here, so they too leave as the envelope with a 4xx rather than in Fastify's own shape.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The URL is not valid'
        : 'The request is not valid';
  const body: ErrorBody = { error: { code: ErrorCode.VALIDATION, message }, requestId: request.id };
  return reply.status(400).header('x-request-id', request.id).type('application/json; charset=utf-8').send(body);
}

/**
 * Requests Node's HTTP parser refuses (a forbidden byte in a header, headers too large, a request
 * too slow to arrive) never become a Fastify request: the `clientErrorHandler` option sends them
 * here, and the answer is still the envelope, with a request id of its own.
 */
export function sendClientError(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
        : [400, 'Bad Request', 'The request is not valid HTTP'];
  const requestId = randomUUID();
  const body: ErrorBody = { error: { code: ErrorCode.VALIDATION, message }, requestId };
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * A multipart body the parser (busboy) cannot read throws a plain Error with no status: no
 * boundary, a truncated part, a malformed part header.
 */
function isMalformedMultipart(error: FastifyError, request: FastifyRequest): boolean {
  return (
    error.statusCode === undefined &&
    /^multipart\//i.test(request.headers['content-type'] ?? '') &&
    /multipart|boundary|part|unexpected end/i.test(error.message)
  );
}

/**
 * The one error handler (STYLE.md): every failure leaves as {error:{code,message},requestId}.
 * Bad input is a 4xx, never a 500; 5xx details are logged with the request id and hidden.
 */
export const errorHandlerPlugin = fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, code: string, message: string, fields?: Record<string, string>) => {
      const body: ErrorBody = { error: { code, message, ...(fields ? { fields } : {}) }, requestId: request.id };
      return reply.status(status).type('application/json; charset=utf-8').send(body);
    };

    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return send(error.statusCode, error.code, error.message, error.fields);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = (issue.params.issue as { path?: PropertyKey[] } | undefined)?.path ?? [];
        const key = path.map(String).join('.') || issue.instancePath.replace(/^\//, '') || '_';
        fields[key] ??= issue.message ?? 'Invalid value';
      }
      const first = Object.entries(fields)[0];
      const where = error.validationContext ?? 'request';
      const message = first ? first[1] : `Invalid ${where}`;
      return send(400, ErrorCode.VALIDATION, message, fields);
    }

    if (isMalformedMultipart(error, request)) {
      return send(400, ErrorCode.VALIDATION, 'The multipart body is malformed');
    }

    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_FILES_LIMIT') {
      return send(413, ErrorCode.PAYLOAD_TOO_LARGE, 'The request is too large');
    }
    if (status === 415) return send(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported content type');
    if (status === 429) return send(429, ErrorCode.RATE_LIMITED, 'Too many requests. Please slow down.');
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty JSON bodies, bad multipart and the like.
      return send(
        status === 404 ? 404 : 400,
        status === 404 ? ErrorCode.NOT_FOUND : ErrorCode.VALIDATION,
        error.message,
      );
    }
    if (isDependencyUnavailable(error)) {
      request.log.error({ err: error }, 'a dependency is unavailable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return send(503, ErrorCode.UNAVAILABLE, 'The service is temporarily unavailable. Please try again shortly.');
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, ErrorCode.INTERNAL, 'Something went wrong on our side. Please try again.');
  });

  app.setNotFoundHandler((request, reply) => {
    // With the web app built, page paths never get here: plugins/static-web.ts answers them.
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const body: ErrorBody = {
      error: { code: ErrorCode.NOT_FOUND, message: `No route for ${request.method} ${pathname}` },
      requestId: request.id,
    };
    return reply.status(404).send(body);
  });
});

// --- Dependency unavailability ----------------------------------------------------------------
// A database or Redis that is down, frozen, restarting or overloaded is not a bug of ours: the
// caller should retry, so it is a 503 with Retry-After, not a 500.

export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes meaning "the server cannot serve you now", not "your SQL is wrong". */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0|57014|58)/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection is closed|Command timed out|enableOfflineQueue|Reached the max retries per request/i;

const STORAGE_FAILURE = /^could not (open|read|write|extend|create|fsync|truncate)\b.*\b(file|directory)\b/;

/** True when `error`, or an error it wraps (Drizzle wraps driver errors in `cause`), means a dependency is unavailable. */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    const severity = (current as { severity?: unknown }).severity;
    if (severity === 'PANIC' || severity === 'FATAL') return true;
    if (current instanceof Error && UNAVAILABLE_MESSAGE.test(current.message)) return true;
    // The database could not read or write its own files (permissions, disk full, I/O errors).
    if (severity === 'ERROR' && current instanceof Error && STORAGE_FAILURE.test(current.message)) return true;
  }
  return false;
}
