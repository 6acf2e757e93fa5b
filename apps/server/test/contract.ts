import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * The contract check every API test runs (decision 012): each response the suite receives must be
 * one the OpenAPI document promises for that operation — a declared status, the declared required
 * headers (X-Total-Count on lists), and a body valid against the declared schema, where objects
 * are closed, so an extra field fails. createTestApp wraps `app.inject` with it.
 */

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  /** Per segment: true for a literal one; the router prefers literals over parameters. */
  literals: boolean[];
  responses: Record<string, Json>;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/** Paths outside the API's contract, skipped on purpose: the web app's pages and files, the docs UI. */
export function isOutsideContract(pathname: string): boolean {
  if (pathname !== '/api' && !pathname.startsWith('/api/')) return true; // web pages, assets
  return pathname === '/api/docs' || pathname.startsWith('/api/docs/'); // Swagger UI and the document itself
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function headerValue(headers: LightMyRequestResponse['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function decodedBody(response: LightMyRequestResponse): string {
  const encoding = headerValue(response.headers, 'content-encoding');
  const raw = response.rawPayload;
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (encoding === 'deflate') return inflateSync(raw).toString('utf8');
  return raw.toString('utf8');
}

export interface ContractChecker {
  /** Throws ContractViolation when the response is not one the document declares. */
  check(request: { method: string; url: string }, response: LightMyRequestResponse): void;
}

export function createContractChecker(document: Json): ContractChecker {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      const segments = path.split('/').slice(1);
      const pattern = new RegExp(
        `^/${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
      );
      operations.push({
        method: method.toUpperCase(),
        path,
        pattern,
        literals: segments.map((s) => !/^\{.+\}$/.test(s)),
        responses: operation.responses as Record<string, Json>,
      });
    }
  }

  function findOperation(method: string, pathname: string): Operation | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const matches = operations.filter((o) => o.method === wanted && o.pattern.test(pathname));
    // As the router does: at the first segment where two templates differ, the literal one wins.
    matches.sort((a, b) => {
      for (let i = 0; i < a.literals.length; i += 1) {
        if (a.literals[i] !== b.literals[i]) return a.literals[i] ? -1 : 1;
      }
      return 0;
    });
    return matches[0];
  }

  function validateJson(pointer: string, text: string, where: string): void {
    let body: unknown;
    try {
      body = text.length === 0 ? undefined : JSON.parse(text);
    } catch {
      throw new ContractViolation(`${where}: the body is not JSON: ${text.slice(0, 200)}`);
    }
    const validate = validatorAt(pointer);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
        .join('; ');
      throw new ContractViolation(`${where}: the body does not match the document: ${errors}\n${text.slice(0, 500)}`);
    }
  }

  return {
    check(request, response) {
      const method = request.method.toUpperCase();
      const url = new URL(request.url, 'http://contract.test');
      const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
      if (isOutsideContract(pathname)) return;
      const status = String(response.statusCode);
      const where = `${method} ${pathname} → ${status}`;
      const contentType = headerValue(response.headers, 'content-type') ?? '';
      const operation = findOperation(method, pathname);
      if (!operation) {
        // No route: a 4xx in the error envelope (404 from the not-found handler; 400, 403, 413 or
        // 415 from the guards that run before routing: input guard, CSRF, body parsers).
        if (!['400', '403', '404', '413', '415'].includes(status)) {
          throw new ContractViolation(`${where}: no operation in the document answers this path`);
        }
        if (method !== 'HEAD') validateJson('/components/schemas/ErrorResponse', decodedBody(response), where);
        return;
      }
      const declared = operation.responses[status];
      if (!declared) {
        throw new ContractViolation(
          `${where}: status ${status} is not documented for ${operation.method} ${operation.path} (documented: ${Object.keys(operation.responses).join(', ')})\n${response.body.slice(0, 300)}`,
        );
      }
      for (const [name, header] of Object.entries((declared.headers ?? {}) as Record<string, Json>)) {
        if (header.required && headerValue(response.headers, name) === undefined) {
          throw new ContractViolation(`${where}: the documented header ${name} is missing`);
        }
      }
      // A redirect's body is for no one (better-auth's OAuth callbacks): its status is the contract.
      if (method === 'HEAD' || response.rawPayload.length === 0 || status.startsWith('3')) return;
      const content = (declared.content ?? {}) as Record<string, Json>;
      const mediaType = contentType.split(';')[0]!.trim();
      if (!content[mediaType]) {
        throw new ContractViolation(
          `${where}: content type "${mediaType}" is not documented (documented: ${Object.keys(content).join(', ') || 'no body'})`,
        );
      }
      if (mediaType !== 'application/json') return; // bytes (images): the type is the contract
      const pointer = `/paths/${escapePointer(operation.path)}/${operation.method.toLowerCase()}/responses/${status}/content/${escapePointer(mediaType)}/schema`;
      validateJson(pointer, decodedBody(response), where);
    },
  };
}

/**
 * Makes `app.inject(options)` check every answer against the app's own document. The chained
 * (`inject()`) and callback forms are left as they are: the suite does not use them.
 */
export function checkResponsesAgainstDocument(app: FastifyInstance): void {
  // Built on first use: a suite that only asks for web pages never pays for the document.
  let checker: ContractChecker | undefined;
  const original = app.inject.bind(app) as unknown as (...args: unknown[]) => unknown;
  const inject = original as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    const request =
      typeof options === 'string'
        ? { method: 'GET', url: options }
        : {
            method: options.method ?? 'GET',
            url: typeof options.url === 'string' ? options.url : typeof options.path === 'string' ? options.path : '/',
          };
    const url = String(request.url);
    if (isOutsideContract(new URL(url, 'http://contract.test').pathname)) return response;
    checker ??= createContractChecker(app.swagger() as unknown as Json);
    checker.check({ method: String(request.method), url }, response);
    return response;
  };
  Object.assign(app, {
    inject: (options?: InjectOptions | string, callback?: unknown) =>
      options === undefined || callback !== undefined ? original(options, callback) : checked(options),
  });
}
