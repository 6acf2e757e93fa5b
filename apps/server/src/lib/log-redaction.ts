import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino from 'pino';

/**
 * No personal data in logs: names, e-mails, phones, passwords and tokens never leave in a log
 * line, whoever wrote it (our code, Fastify, better-auth through `app.log`). Three layers:
 * - errors are serialized without what they carry about the row (a failed query's parameters,
 *   PostgreSQL's `detail`): the SQL text and the SQLSTATE code are enough to debug;
 * - request URLs are logged without their query string (search terms, e-mails);
 * - every finished line passes a scrubber that blanks personal keys at any depth and e-mail
 *   addresses, phone numbers and tokens inside any string (pino's `streamWrite` hook: a regex test
 *   for most lines, no stream of ours in between).
 * Lines go to stdout through pino's own asynchronous destination (sonic-boom): lines written while
 * a write is in flight leave in one write, and what is buffered is flushed synchronously when the
 * process exits, `process.exit` after a graceful shutdown included (decision 035).
 */

export const REDACTED = '[redacted]';

/** Keys whose values are personal or secret wherever they appear (compared in lower case). */
const PERSONAL_KEYS = new Set([
  'email',
  'name',
  'phone',
  'password',
  'newpassword',
  'currentpassword',
  'token',
  'sessiontoken',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'secret',
  'clientsecret',
  'cookie',
  'set-cookie',
  'authorization',
  // A failed query's bound values and PostgreSQL's "Key (email)=(…) already exists".
  'params',
  'parameters',
  'detail',
]);

const EMAIL = /[\w.+-]+(?:@|%40)[\w-]+(?:\.[\w-]+)+/gi;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;
const PHONE = /\+\d[\d\s().-]{6,}\d/g;
const SQL_PARAMS = /\bparams: [^\n]*/g;

/** Personal data inside free text: e-mails, phone numbers in international form, tokens, SQL parameters. */
export function scrubText(text: string): string {
  return text
    .replace(SQL_PARAMS, `params: ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(EMAIL, REDACTED)
    .replace(PHONE, REDACTED);
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = PERSONAL_KEYS.has(key.toLowerCase()) ? REDACTED : scrubValue(child, depth + 1);
  }
  return out;
}

/**
 * Whether a line can hold anything the scrubber would change: a personal key, or what scrubText
 * looks for. Most lines (a request's start and end) hold none, and skip the parse and rewrite.
 */
const MAY_BE_PERSONAL = new RegExp(
  // No word boundaries here: JSON writes a newline as the two characters \ and n, which join the words around it.
  `@|%40|eyJ|Bearer|Basic|\\+\\d|params: |"(?:${[...PERSONAL_KEYS].map((k) => k.replace(/-/g, '\\-')).join('|')})"\\s*:`,
  'i',
);

/** One finished log line (pino's JSON) with personal data taken out. */
export function scrubLogLine(line: string): string {
  if (!MAY_BE_PERSONAL.test(line)) return line.endsWith('\n') ? line : `${line}\n`;
  try {
    return `${JSON.stringify(scrubValue(JSON.parse(line), 0))}\n`;
  } catch {
    return `${scrubText(line.replace(/\n$/, ''))}\n`;
  }
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  sql?: string;
  sqlState?: string;
  constraint?: string;
  table?: string;
  column?: string;
  statusCode?: number;
  cause?: SerializedError;
}

/** The stack without its first line(s), which repeat the message (and a failed query's parameters). */
function framesOf(error: Error): string {
  return (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/**
 * Errors as log fields. A Drizzle query error (`query` + `params`) keeps its SQL text and the
 * database's SQLSTATE code, never its parameters; a database error keeps code, constraint, table
 * and column, never `detail` (which quotes the row's values).
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) {
    const message = scrubText(String(error));
    return { type: typeof error, message, stack: message };
  }
  const fields = error as Error & Record<string, unknown>;
  const type = error.constructor?.name || error.name || 'Error';
  const isQueryError = typeof fields.query === 'string' && Array.isArray(fields.params);
  const message = isQueryError ? `Failed query: ${fields.query as string}` : scrubText(error.message);
  const out: SerializedError = { type, message, stack: `${type}: ${message}\n${framesOf(error)}` };
  if (isQueryError) out.sql = fields.query as string;
  if (typeof fields.code === 'string') {
    // PostgreSQL's SQLSTATE is five characters; other codes are ours or Fastify's.
    if (/^[0-9A-Z]{5}$/.test(fields.code) && !fields.code.startsWith('FST')) out.sqlState = fields.code;
    else out.code = fields.code;
  }
  for (const key of ['constraint', 'table', 'column'] as const) {
    if (typeof fields[key] === 'string') out[key] = fields[key] as string;
  }
  if (typeof fields.statusCode === 'number') out.statusCode = fields.statusCode;
  if (error.cause !== undefined && depth < 3) {
    out.cause = serializeError(error.cause, depth + 1);
    out.sqlState ??= out.cause.sqlState;
  }
  return out;
}

/** A destination pino can write to: a stream, or anything with `write(line)`. */
export interface LogDestination {
  write(line: string): unknown;
}

/** The request's URL without its query string (search terms, e-mails), as every line logs it. */
function urlWithoutQuery(url: string | undefined): string {
  const value = url ?? '';
  const queryAt = value.indexOf('?');
  return queryAt === -1 ? value : `${value.slice(0, queryAt)}?${REDACTED}`;
}

/** Lines are held until this many bytes wait (one write for a few dozen lines under load)... */
const LOG_BATCH_BYTES = 8 * 1024;
/** ...or for at most this long: a quiet server's line still leaves at once, to the eye (decision 036). */
const LOG_FLUSH_MS = 100;
/** How long after the last line the timer keeps flushing (a write in flight can hold a batch back). */
const LOG_FLUSH_WINDOW_MS = 2_000;

/**
 * stdout through sonic-boom, written in batches: one asynchronous write per request cost the
 * catalogue a thread-pool round trip per line (decision 036). What is held is written at the next
 * tick of an unref'd timer, and synchronously at exit (pino's flush on `exit`, decision 035).
 */
function batchedStdout(): { stream: LogDestination; noteLine: () => void } {
  const stream = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  let lastLineAt = Number.NEGATIVE_INFINITY;
  // A flush while a write is in flight does nothing, and what is held after it waits for the next
  // flush: so every tick flushes for a while after the last line, not once per line.
  setInterval(() => {
    if (performance.now() - lastLineAt <= LOG_FLUSH_WINDOW_MS) stream.flush();
  }, LOG_FLUSH_MS).unref();
  return {
    stream,
    noteLine: () => {
      lastLineAt = performance.now();
    },
  };
}

/**
 * Fastify's logger options for the app: level, serializers, the scrubber as pino's `streamWrite`
 * hook, and stdout through sonic-boom in batches (or the given destination: tests collect the lines).
 */
export function loggerOptions(
  level: string,
  destination?: LogDestination,
  format: 'json' | 'short' = 'json',
): FastifyServerOptions['logger'] {
  const stdout = destination ? null : batchedStdout();
  // Scrubbed first, then shortened: a short line is made of what the JSON line kept.
  const finish = format === 'short' ? (line: string) => shortLogLine(scrubLogLine(line)) : scrubLogLine;
  return {
    level,
    serializers: {
      err: serializeError,
      req: (request: { method?: string; url?: string; ip?: string }) => ({
        method: request.method,
        url: urlWithoutQuery(request.url),
        remoteAddress: request.ip,
      }),
    },
    hooks: {
      streamWrite: stdout
        ? (line: string) => {
            stdout.noteLine();
            return finish(line);
          }
        : finish,
    },
    stream: destination ?? stdout!.stream,
  };
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/**
 * A JSON log line as a person reads it in development (LOG_FORMAT=short): a request is
 * `12:04:31 GET /api/classes 200 3.1ms`; anything else its time, level and message, with an
 * error's type, message and frames below. A line that is no JSON passes unchanged.
 */
export function shortLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (entry.msg === 'request completed' && req && res) {
    return `${time} ${req.method ?? '?'} ${req.url ?? '?'} ${res.statusCode ?? '?'} ${String(entry.responseTime ?? '?')}ms\n`;
  }
  const level = LEVEL_NAMES[entry.level as number] ?? 'LOG';
  const reqId = typeof entry.reqId === 'string' && level !== 'INFO' ? ` (request ${entry.reqId})` : '';
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  const detail = err ? `\n  ${err.type ?? 'Error'}: ${err.message ?? ''}${err.stack ? `\n${err.stack}` : ''}` : '';
  return `${time} ${level} ${String(entry.msg ?? '')}${reqId}${detail}\n`;
}

/**
 * One line per request (decision 035), instead of Fastify's two ("incoming request" and "request
 * completed", turned off with `disableRequestLogging`): written when the response is sent, with the
 * request id (the child logger's `reqId`), method, route, URL without its query, status and time.
 */
export function logEveryResponse(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        req: request,
        route: request.routeOptions.url ?? 'unmatched',
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });
}
