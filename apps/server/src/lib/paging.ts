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
