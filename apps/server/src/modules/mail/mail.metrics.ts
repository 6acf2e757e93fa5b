import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/client.ts';
import { oldestPendingCreatedAt } from './mail.repository.ts';
import { countPending } from './mail.service.ts';

/**
 * The outbox in /metrics (docs/OPERATIONS.md): how many mails wait, and how long the oldest has waited
 * (the worker's lag; it grows while SMTP is down). Read from the database at each scrape.
 */
export function registerMailMetrics(registry: Registry, db: Db, now: () => Date): void {
  new Gauge({
    name: 'skillhive_mail_outbox_pending',
    help: 'E-mails written to the outbox and not yet sent',
    registers: [registry],
    async collect() {
      this.set(await countPending(db));
    },
  });
  new Gauge({
    name: 'skillhive_mail_outbox_oldest_pending_seconds',
    help: 'How long the oldest unsent e-mail has waited (0 when none waits)',
    registers: [registry],
    async collect() {
      const oldest = await oldestPendingCreatedAt(db);
      this.set(oldest ? Math.max(0, (now().getTime() - oldest.getTime()) / 1000) : 0);
    },
  });
}
