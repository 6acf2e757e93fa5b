import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { declareAccess, type DeclaredRoute } from '../lib/authorize.ts';
import {
  applyContract,
  ERROR_RESPONSE_SCHEMA,
  operationKey,
  PATH_ALIASES,
  USER_PATH_PARAM_DESCRIPTION,
} from './openapi-access.ts';
import { AUTH_COMPONENT_SCHEMAS, AUTH_OPERATIONS } from './openapi-auth.ts';

type Json = Record<string, unknown>;
type PathItem = Record<string, Json>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Operations under one template with different parameter names share one path (decision 012). */
function mergeAliasedPaths(paths: Record<string, PathItem>): void {
  for (const [from, alias] of Object.entries(PATH_ALIASES)) {
    const item = paths[from];
    if (!item) continue;
    delete paths[from];
    const target = (paths[alias.path] ??= {});
    for (const [method, operation] of Object.entries(item)) {
      for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
        if (parameter.in === 'path' && parameter.name === alias.from) {
          parameter.name = alias.to;
          parameter.description = alias.description;
        }
      }
      target[method] = operation;
    }
  }
  for (const operation of Object.values(paths['/api/users/admin/{user}'] ?? {})) {
    for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
      if (parameter.in === 'path' && parameter.name === 'user') parameter.description = USER_PATH_PARAM_DESCRIPTION;
    }
  }
}

/**
 * The generated document completed from each route's declared access (decision 025): who may call
 * each operation, its error responses, list headers; then the better-auth endpoints and servers
 * (decision 012). A route declaring no access makes the document fail: it cannot be published.
 */
export function completeDocument(document: Json, publicUrl: string, routes: readonly DeclaredRoute[]): Json {
  const paths = (document.paths ??= {}) as Record<string, PathItem>;
  const declared = new Map(routes.map((route) => [operationKey(route.method, route.url), route.config]));
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const config = declared.get(operationKey(method, path));
      if (!config?.access) throw new Error(`${operationKey(method, path)} declares no access in its route config`);
      applyContract(operation, { ...config, access: config.access }, method);
    }
  }
  mergeAliasedPaths(paths);
  const image = paths['/api/uploads/images/{key}']?.get;
  if (image) {
    (image.responses as Json)['200'] = {
      description: 'The image (WebP), cacheable forever',
      headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'public, max-age=31536000, immutable' } },
      content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  // Class content (decision 021): a material's file and a class's calendar are not JSON.
  const material = paths['/api/materials/{id}/file']?.get;
  if (material) {
    const binary = { schema: { type: 'string', format: 'binary' } };
    (material.responses as Json)['200'] = {
      description: "The material's file as an attachment, its type read from its bytes at upload",
      headers: {
        'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"' },
        'Cache-Control': { schema: { type: 'string' }, description: 'private, no-store' },
        'X-Content-Type-Options': { schema: { type: 'string' }, description: 'nosniff' },
      },
      content: Object.fromEntries(
        ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/gif'].map((type) => [type, binary]),
      ),
    };
  }
  const calendar = paths['/api/classes/{id}/calendar.ics']?.get;
  if (calendar) {
    (calendar.responses as Json)['200'] = {
      description: 'The published sessions as an iCalendar (RFC 5545) file, times in UTC',
      content: { 'text/calendar': { schema: { type: 'string' } } },
    };
  }
  // Money out (decision 040): CSV statements and batches, the test gateway's onboarding page and
  // the redirects of Connect onboarding.
  const csv = (description: string) => ({
    description,
    headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"' } },
    content: { 'text/csv': { schema: { type: 'string' } } },
  });
  const statement = paths['/api/teachers/me/earnings/statement']?.get;
  if (statement)
    (statement.responses as Json)['200'] = csv('The month’s statement as CSV, one line per paid line and a total');
  const batchCsv = paths['/api/admin/payout-batches/{id}/csv']?.get;
  if (batchCsv) (batchCsv.responses as Json)['200'] = csv('The batch’s payouts as CSV for bank transfers');
  const onboardingPage = paths['/test-gateway/connect/{accountId}']?.get;
  if (onboardingPage) {
    (onboardingPage.responses as Json)['200'] = {
      description: 'The onboarding page',
      content: { 'text/html': { schema: { type: 'string' } } },
    };
  }
  const redirect = (description: string) => ({
    description,
    headers: { Location: { schema: { type: 'string' }, description: 'Where to go next' } },
  });
  for (const path of ['/api/teachers/me/connect/return', '/api/teachers/me/connect/refresh']) {
    const operation = paths[path]?.get;
    if (operation) {
      const responses = operation.responses as Json;
      delete responses['200'];
      responses['303'] = redirect('To the Earnings page, or to a fresh onboarding link');
    }
  }
  const completeOnboarding = paths['/test-gateway/connect/{accountId}']?.post;
  if (completeOnboarding) {
    const responses = completeOnboarding.responses as Json;
    delete responses['200'];
    responses['303'] = redirect('Back to the teacher’s return address');
  }
  for (const [key, { contract, operation }] of Object.entries(AUTH_OPERATIONS)) {
    const [method = '', path = ''] = key.split(' ');
    const copy = structuredClone({ tags: ['auth'], ...operation });
    applyContract(copy, contract, method);
    (paths[path] ??= {})[method.toLowerCase()] = copy;
  }
  const components = (document.components ??= {}) as Json;
  components.schemas = {
    ...(components.schemas as Json),
    ErrorResponse: ERROR_RESPONSE_SCHEMA,
    ...AUTH_COMPONENT_SCHEMAS,
  };
  // Stripe's scheme only where its webhook is served (a Stripe gateway): no unused component.
  const schemes = components.securitySchemes as Json | undefined;
  if (schemes && !paths['/api/webhooks/stripe']) delete schemes.stripeSignature;
  document.servers = [{ url: publicUrl, description: 'This SkillHive server (PUBLIC_URL)' }];
  return document;
}

/** OpenAPI from the routes' Zod schemas and declared access, with its UI at /api/docs. */
export const swaggerPlugin = fp(async function swaggerDocs(app: FastifyInstance, opts: { publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'SkillHive API',
        description:
          'Every call states who may make it. Secured calls take the session cookie or `Authorization: Bearer <token>` from POST /api/jwt. Every error answers the ErrorResponse envelope `{error:{code,message,fields?},requestId}`; lists answer their total in X-Total-Count.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A one-hour token from POST /api/jwt.',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'better-auth.session_token',
            description:
              'The session cookie set by sign-up, sign-in or an OAuth callback (`__Secure-` prefixed over HTTPS).',
          },
          stripeSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'Stripe-Signature',
            description: "Stripe's signature of the raw body with the webhook secret.",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    // openapi mode: the object is always { openapiObject } (the swagger 2 form is never built).
    transformObject: (input) =>
      completeDocument(
        structuredClone((input as { openapiObject: Json }).openapiObject),
        opts.publicUrl,
        app.declaredRoutes,
      ),
  });
  // The document and its UI are public (decision 025).
  await app.register(async (docs) => {
    declareAccess(docs, 'public');
    await docs.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  });
});
