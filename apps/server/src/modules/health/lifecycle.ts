import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '../../lib/app-error.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../plugins/error-handler.ts';

/**
 * Where the process is in its life (server.ts moves it on SIGTERM):
 * - running: normal service;
 * - draining: /api/ready answers 503 so load balancers stop sending traffic, everything else is served;
 * - closing: requests already running finish; a new request (on a kept-alive connection) gets 503
 *   with `Connection: close`, in the standard error envelope.
 */
export interface Lifecycle {
  phase: 'running' | 'draining' | 'closing';
}

export const lifecyclePlugin = fp(async function lifecycle(app: FastifyInstance, opts: { lifecycle: Lifecycle }) {
  // Synchronous: it runs on every request and waits for nothing (decision 036).
  app.addHook('onRequest', (request, reply, done) => {
    if (opts.lifecycle.phase !== 'closing') {
      done();
      return;
    }
    reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .type('application/json; charset=utf-8')
      .send({
        error: { code: ErrorCode.UNAVAILABLE, message: 'The server is restarting. Please try again shortly.' },
        requestId: request.id,
      });
    // A hook that sent the reply ends the request without calling done.
  });
});
