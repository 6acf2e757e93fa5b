import type { FastifyInstance } from 'fastify';
import type { Db } from './db/client.ts';
import type { Env } from './env.ts';
import { createSessionReminders } from './modules/content/session-reminders.ts';
import { createSmtpSender } from './modules/mail/mail.transport.ts';
import { createMailWorker } from './modules/mail/mail.worker.ts';
import type { PaymentGateway } from './modules/gateways/gateway.public.ts';
import { createReconciler } from './modules/checkout/reconciler.ts';
import { createPayoutJob } from './modules/earnings/payout-job.ts';
import type { LedgerSettings } from './modules/earnings/earnings.public.ts';
import type { NotificationPublisher } from './modules/notifications/notifications.public.ts';
import { createSectionCancellationJob } from './modules/sections/cancellation-job.ts';
import { createImageCollector } from './modules/uploads/image-collector.ts';
import type { ImageStorage } from './modules/uploads/storage.public.ts';
import { createWaitlistJob } from './modules/waitlists/offer-job.ts';
import type { WaitlistDeps } from './modules/waitlists/waitlists.service.ts';

/**
 * Every interval job of the server, in one place: each starts when the app is ready and is
 * stopped (waiting for a run in progress) when it closes. Each is safe on several instances.
 */
export function registerJobs(
  app: FastifyInstance,
  deps: {
    env: Env;
    db: Db;
    storage: ImageStorage;
    gateway: PaymentGateway;
    now: () => Date;
    ledger: LedgerSettings;
    notifications: NotificationPublisher;
    waitlist: WaitlistDeps;
  },
) {
  const { env, db, now } = deps;
  const log = app.log;
  const jobs: { start(): void; stop(): Promise<void> }[] = [];
  // Unused images are removed after a grace period, on every instance in turn (advisory lock).
  const imageCollector = createImageCollector({
    db,
    storage: deps.storage,
    now,
    graceHours: env.UPLOAD_GC_GRACE_HOURS,
    intervalMs: env.UPLOAD_GC_INTERVAL_MINUTES * 60_000,
    log,
  });
  // Reminders of sessions starting soon, through the outbox (decision 021).
  const sessionReminders = createSessionReminders({
    db,
    now,
    publicUrl: env.publicUrl,
    notifications: deps.notifications,
    reminderMinutes: env.SESSION_REMINDER_MINUTES,
    intervalMs: env.SESSION_REMINDER_INTERVAL_SECONDS * 1000,
    log,
  });
  jobs.push(imageCollector, sessionReminders);
  // The outbox is sent only where there is somewhere to send it; without SMTP, mail waits there.
  if (env.SMTP_URL) {
    const smtp = createSmtpSender(env.SMTP_URL, env.MAIL_FROM, new URL(env.publicUrl).hostname);
    const mailWorker = createMailWorker({ db, send: smtp.send, log, intervalMs: env.MAIL_WORKER_INTERVAL_MS });
    jobs.push({
      start: () => mailWorker.start(),
      stop: async () => {
        await mailWorker.stop();
        smtp.close();
      },
    });
  }
  // Settles charges nobody came back for (decision 010).
  const reconciler = createReconciler({
    db,
    gateway: deps.gateway,
    now,
    publicUrl: env.publicUrl,
    notifications: deps.notifications,
    ledger: deps.ledger,
    log,
    intervalSeconds: env.RECONCILE_INTERVAL_SECONDS,
  });
  jobs.push(reconciler);
  // Records sales from before the ledger, releases shares, settles payouts in flight, runs the
  // scheduled payouts (decisions 039, 040).
  const payoutJob = createPayoutJob({
    db,
    gateway: deps.gateway,
    now,
    log,
    ledger: deps.ledger,
    minimumCents: env.PAYOUT_MINIMUM_CENTS,
    schedule: env.PAYOUT_SCHEDULE,
    intervalSeconds: env.PAYOUT_JOB_INTERVAL_SECONDS,
  });
  jobs.push(payoutJob);
  // Cancels and refunds sections under their minimum at their deadline (decision 052).
  const sectionCancellations = createSectionCancellationJob({
    db,
    gateway: deps.gateway,
    now,
    log,
    publicUrl: env.publicUrl,
    notifications: deps.notifications,
    intervalMs: env.SECTION_CANCEL_INTERVAL_SECONDS * 1000,
  });
  jobs.push(sectionCancellations);
  // Offers free seats of full sections to the people waiting, in order; expires unclaimed offers (decision 051).
  const waitlistJob = createWaitlistJob({
    ...deps.waitlist,
    intervalMs: env.WAITLIST_INTERVAL_SECONDS * 1000,
    log,
  });
  jobs.push(waitlistJob);
  app.addHook('onReady', async () => {
    for (const job of jobs) job.start();
  });
  app.addHook('onClose', async () => {
    for (const job of jobs) await job.stop();
  });
  return { reconciler, sessionReminders, payoutJob, sectionCancellations, waitlistJob };
}
