import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import type { CapturedQuery } from './sql-baseline.ts';

/**
 * The framework limit of the same work, for the uncached search scenario (decision 018): a
 * bare Fastify app (the repo's fastify, no plugins, no logger, none of the app's code)
 * with a pg Pool of the server's size. For each search request it runs the SQL the real server
 * sent for that very request (captured by the bench, statement by statement, on one pooled
 * connection as the server's transaction needs) and answers the page's rows as JSON. What it
 * leaves out is what the app adds around the database: routing, validation, the correction and
 * tsquery building in JavaScript, serialisation of the class shape, security headers, logging.
 */
const queriesByPath = JSON.parse(readFileSync(process.env.BARE_QUERIES_FILE ?? '', 'utf8')) as Record<
  string,
  CapturedQuery[]
>;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.BARE_POOL_SIZE ?? 10),
});
const port = Number(process.env.PORT ?? 0);

const app = Fastify({ logger: false });
app.get('/api/classes', async (request, reply) => {
  const queries = queriesByPath[request.url];
  if (!queries) return reply.code(404).send({ error: 'this request was not captured' });
  const client = await pool.connect();
  try {
    // The page is the last statement that answered rows (the classes of the page, by id).
    let rows: unknown[] = [];
    for (const q of queries) {
      const result = await client.query({
        text: q.text,
        values: q.values,
        ...(q.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
      });
      if (result.rows.length > 0) rows = result.rows;
    }
    return rows;
  } finally {
    client.release();
  }
});
app.get('/api/ready', async () => ({ status: 'ready' }));

const close = () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
};
process.once('SIGTERM', close);
process.once('SIGINT', close);

await app.listen({ host: '127.0.0.1', port });
