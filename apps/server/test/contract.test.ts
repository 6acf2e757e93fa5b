import Fastify, { type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type DeclaredRoute, registerAccess } from '../src/lib/authorize.ts';
import { operationKey } from '../src/plugins/openapi-access.ts';
import { AUTH_ENDPOINTS } from '../src/plugins/openapi-auth.ts';
import { swaggerPlugin } from '../src/plugins/swagger.ts';
import { checkResponsesAgainstDocument, ContractViolation, isOutsideContract } from './contract.ts';
import { createTestApp, type TestContext } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking the parsed JSON document, checked by expect
type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the OpenAPI document (decision 012)', () => {
  let ctx: TestContext;
  let doc: Json;
  beforeAll(async () => {
    ctx = await createTestApp({ PUBLIC_URL: 'https://skillhive.test' });
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(() => ctx.close());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op: op as Json })),
    );

  it('names its server from PUBLIC_URL', () => {
    expect(doc.servers).toEqual([{ url: 'https://skillhive.test', description: expect.any(String) }]);
  });

  it('states for every operation who may call it, its security and its error envelope', () => {
    expect(operations().length).toBeGreaterThan(40);
    for (const { key, op } of operations()) {
      expect(op.security, key).toBeInstanceOf(Array);
      expect(op.description, key).toMatch(/^Who may call: /);
      const statuses = Object.keys(op.responses);
      expect(statuses, key).toContain('500');
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const schema = op.responses[status].content['application/json'].schema;
        // The envelope itself, or (GET /api/ready's 503) a body that carries it and says more.
        if (schema.$ref) expect(schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
        else expect(schema.required, `${key} ${status}`).toEqual(expect.arrayContaining(['error', 'requestId']));
      }
      if (op.security.length > 0 && !op.security.some((s: Json) => Object.keys(s).length === 0)) {
        expect(statuses, `${key} is secured`).toContain('401');
      }
    }
    expect(doc.components.schemas.ErrorResponse.required).toEqual(['error', 'requestId']);
  });

  it('documents X-Total-Count on every list', () => {
    const lists = ctx.app.declaredRoutes.filter((route: DeclaredRoute) => route.config.list && route.method !== 'HEAD');
    expect(lists.length).toBeGreaterThan(5);
    for (const { method, url } of lists) {
      const key = operationKey(method, url);
      const path = key.split(' ')[1]!.replace(/^\/api\/enrolled\/\{email\}$/, '/api/enrolled/{emailOrId}');
      const ok = doc.paths[path][method.toLowerCase()].responses['200'];
      expect(ok.headers['X-Total-Count'].required, key).toBe(true);
    }
  });

  it('describes the better-auth endpoints people call, each listed in AUTH_ENDPOINTS', () => {
    const documented = operations()
      .map((o) => o.key)
      .filter((key) => key.includes(' /api/auth/'));
    expect(documented.sort()).toEqual([...AUTH_ENDPOINTS].sort());
    expect(doc.paths['/api/auth/sign-up/email'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'email', 'password']),
    );
  });

  it('has no two paths that differ only in their parameter names', () => {
    const shapes = Object.keys(doc.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'));
    expect(new Set(shapes).size).toBe(shapes.length);
    expect(Object.keys(doc.paths['/api/users/admin/{user}'])).toEqual(expect.arrayContaining(['get', 'patch']));
    expect(Object.keys(doc.paths['/api/enrolled/{emailOrId}'])).toEqual(expect.arrayContaining(['get', 'delete']));
  });
});

describe('the contract check of every test response', () => {
  /** A small app whose routes break the document on purpose. */
  async function misbehavingApp(extraRoute?: string) {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerAccess(app);
    await app.register(swaggerPlugin, { publicUrl: 'http://localhost:3000' });
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/api/health',
      {
        config: { access: 'public' },
        schema: {
          operationId: 'health',
          querystring: z.object({ answer: z.enum(['ok', 'extra-field', 'teapot']).default('ok') }),
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      async (request, typedReply) => {
        // An untyped reply: these answers break the declared schema on purpose.
        const reply = typedReply as FastifyReply;
        if (request.query.answer === 'teapot') return reply.status(418).send({ status: 'ok' });
        if (request.query.answer === 'extra-field') {
          return reply.type('application/json').send(JSON.stringify({ status: 'ok', debug: 'leaked' }));
        }
        return { status: 'ok' as const };
      },
    );
    typed.get(
      '/api/reviews',
      {
        config: { access: 'public', list: true },
        schema: { operationId: 'listReviews', response: { 200: z.array(z.object({ id: z.string() })) } },
      },
      async () => [],
    );
    if (extraRoute) typed.get(extraRoute, { schema: { operationId: 'unlisted' } }, async () => ({}));
    await app.ready();
    return app;
  }

  it('accepts a documented answer', async () => {
    const app = await misbehavingApp();
    checkResponsesAgainstDocument(app);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await app.close();
  });

  it('fails a test whose response carries a field the document does not declare', async () => {
    const app = await misbehavingApp();
    checkResponsesAgainstDocument(app);
    await expect(app.inject({ method: 'GET', url: '/api/health?answer=extra-field' })).rejects.toThrow(
      /does not match the document.*additionalProperty.*debug/s,
    );
    await app.close();
  });

  it('fails a test whose response has a status the operation does not document', async () => {
    const app = await misbehavingApp();
    checkResponsesAgainstDocument(app);
    const answer = app.inject({ method: 'GET', url: '/api/health?answer=teapot' });
    await expect(answer).rejects.toBeInstanceOf(ContractViolation);
    await expect(answer).rejects.toThrow(/status 418 is not documented for GET \/api\/health/);
    await app.close();
  });

  it('fails a list answered without its X-Total-Count header', async () => {
    const app = await misbehavingApp();
    checkResponsesAgainstDocument(app);
    await expect(app.inject({ method: 'GET', url: '/api/reviews' })).rejects.toThrow(
      /documented header X-Total-Count is missing/,
    );
    await app.close();
  });

  it('fails an answer from a path no operation documents, unless it is the not-found envelope', async () => {
    const app = await misbehavingApp();
    checkResponsesAgainstDocument(app);
    await expect(app.inject({ method: 'GET', url: '/api/nothing-here' })).rejects.toThrow(
      /does not match the document/,
    );
    await app.close();
  });

  it('refuses to publish a document with a route that declares no access', async () => {
    const app = await misbehavingApp('/api/brand-new');
    expect(() => app.swagger()).toThrow(/GET \/api\/brand-new declares no access in its route config/);
    await app.close();
  });

  it('skips only the web pages and the docs UI', () => {
    expect(isOutsideContract('/')).toBe(true);
    expect(isOutsideContract('/classes/abc')).toBe(true);
    expect(isOutsideContract('/api/docs/json')).toBe(true);
    expect(isOutsideContract('/api/classes')).toBe(false);
    expect(isOutsideContract('/api/uploads/images/x.webp')).toBe(false);
  });
});
