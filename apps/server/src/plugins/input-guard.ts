import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ErrorCode } from '../lib/app-error.ts';

/** Deeper JSON than any form of ours sends; deeper bodies are refused before they are parsed. */
export const MAX_JSON_DEPTH = 64;

const invalid = (message: string) => new AppError(ErrorCode.VALIDATION, message);

/** What a header value may not hold: NUL, CR, LF. */
const FORBIDDEN_HEADER_CHAR = /[\0\r\n]/;

/** The nesting depth of a JSON text, counted without parsing it (brackets inside strings ignored). */
function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * Keys that would reach an object's prototype when a body is merged into another object
 * (Fastify's default parser refuses them too).
 */
function hasPoisonedKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    for (const [key, child] of Object.entries(current)) {
      if (key === '__proto__') return true;
      if (key === 'constructor' && child !== null && typeof child === 'object' && 'prototype' in child) return true;
      stack.push(child);
    }
  }
  return false;
}

/** The first string (key or value) holding a NUL character, which PostgreSQL's text refuses. */
function hasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (current.includes('\0')) return true;
    } else if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes('\0')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/**
 * Input every route gets checked the same way, so hostile input is a 400 and never reaches the
 * database as a 500: JSON bodies are depth-limited and prototype-safe, and no string in the
 * query, the path parameters or the body may hold a NUL byte.
 */
export const inputGuardPlugin = fp(
  async function inputGuard(app: FastifyInstance) {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = body as string;
      if (text.trim() === '') return done(invalid('The JSON body is empty'));
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
        return done(invalid(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`));
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(invalid('The body is not valid JSON'));
      }
      if (hasPoisonedKey(parsed)) return done(invalid('The JSON body contains a forbidden key'));
      return done(null, parsed);
    });

    // Node's HTTP parser already refuses these bytes on the wire; a request built in-process
    // (app.inject, a proxy in front) could still carry them into Web Headers, which throw.
    // Both hooks are synchronous (done-callback style): an async hook costs every request a
    // promise and a microtask turn, for checks that never wait (BENCHMARKS.md, decision 036).
    app.addHook('onRequest', (request, _reply, done) => {
      const headers = request.headers;
      for (const name in headers) {
        const value = headers[name];
        if (
          typeof value === 'string'
            ? FORBIDDEN_HEADER_CHAR.test(value)
            : value?.some((v) => FORBIDDEN_HEADER_CHAR.test(v))
        ) {
          done(invalid('A request header contains a forbidden character'));
          return;
        }
      }
      done();
    });

    app.addHook('preValidation', (request, _reply, done) => {
      if (hasNul(request.query) || hasNul(request.params) || hasNul(request.body)) {
        done(invalid('The request contains a NUL character'));
        return;
      }
      done();
    });
  },
  { name: 'input-guard' },
);
