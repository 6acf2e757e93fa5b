import type { FastifyReply } from 'fastify';
import { TOTAL_COUNT_HEADER } from '@skillhive/shared/rules/http';

/**
 * The answer of a paged list route: the page's items as the body, the count of every match in
 * X-Total-Count (the web's pagers read it; plugins/openapi-access.ts documents the header).
 */
export function replyWithPage<T>(reply: FastifyReply, page: { items: T[]; total: number }): T[] {
  reply.header(TOTAL_COUNT_HEADER, String(page.total));
  return page.items;
}

/** The rows a page asks for: `limit` of them after the pages before it (page 1 is the first). */
export function limitOffsetOf(query: { page: number; limit: number }): { limit: number; offset: number } {
  return { limit: query.limit, offset: (query.page - 1) * query.limit };
}
