import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/client.ts';
import { oldestPendingAgeSeconds } from './mail.repository.ts';
import { countPending } from './mail.service.ts';

/**
 * The outbox in /metrics (docs/OPERATIONS.md): how many mails wait, and how long the oldest has waited
 * (the worker's lag; it grows while SMTP is down). Read from the database at each scrape, the lag
 * measured on the database's clock.
 */
export function registerMailMetrics(registry: Registry, db: Db): void {
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
      // On the database's clock, which wrote created_at (decision 032), not this instance's.
      this.set(await oldestPendingAgeSeconds(db));
    },
  });
}
