import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createIntervalJob } from '../../lib/interval-job.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { queueMail, sessionReminderMail } from '../mail/mail.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { contactEmailOf, wantsNotification } from '../users/contact.public.ts';
import { type ContentDeps, MINUTE_MS } from './content-access.ts';
import * as repo from './content.repository.ts';
import { sendOwedMoveMails } from './sessions.ts';
import { refreshPassedSchedules } from '../sections/sections.public.ts';

/**
 * The reminder job buildApp starts when the app is ready (decision 021): every
 * SESSION_REMINDER_INTERVAL_SECONDS (0 disables it) it queues the reminders of sessions starting
 * within SESSION_REMINDER_MINUTES. Safe on several instances: each reminder is claimed once in the
 * database (`sendDueReminders`). The timing is lib/interval-job.ts's, as for the
 * image collector.
 */
export function createSessionReminders(options: {
  db: Db;
  now: () => Date;
  publicUrl: string;
  notifications: NotificationPublisher;
  reminderMinutes: number;
  intervalMs: number;
  log?: FastifyBaseLogger;
}) {
  const runOnce = async () => {
    const reminded = await sendDueReminders(options, options.reminderMinutes);
    // Reschedule mails owed since a move within the hour of the last one (decision 027).
    await sendOwedMoveMails(options);
    // Sessions that have started leave the sections' schedule summaries (decision 053).
    await refreshPassedSchedules(options.db, options.now());
    return reminded;
  };
  return {
    /** One pass now (reminders, then owed reschedule mails); answers how many reminders it queued (tests call it instead of waiting). */
    runOnce,
    ...createIntervalJob({
      intervalMs: options.intervalMs,
      run: runOnce,
      failure: 'sending session reminders failed',
      log: options.log,
    }),
  };
}

/**
 * One pass of the reminder job (decision 021): each published session starting within the next
 * SESSION_REMINDER_MINUTES gets one mail per paid student of its section. The reminder row and the mail commit
 * together, and the row's key (session, student, start) makes a second pass — on this instance or
 * another — send nothing, while a session moved to a new time is reminded of again.
 */
export async function sendDueReminders(
  deps: Pick<ContentDeps, 'db' | 'now' | 'publicUrl'> & { notifications: NotificationPublisher },
  reminderMinutes: number,
): Promise<number> {
  const now = deps.now();
  const due = await repo.listSessionsStartingBetween(
    deps.db,
    now,
    new Date(now.getTime() + reminderMinutes * MINUTE_MS),
  );
  let sent = 0;
  for (const session of due) {
    const cls = await findClassForEnrollment(deps.db, session.classId);
    if (!cls || cls.status === 'archived') continue;
    // The students of the session's own section (decision 041), not of the whole class.
    const studentIds = await enrollments.listPaidStudentIdsOfClass(deps.db, session.classId, session.sectionId);
    sent += await deps.db.transaction(async (tx) => {
      const claimed = await repo.claimReminders(tx, session, studentIds, now);
      let queued = 0;
      for (const studentId of claimed) {
        const contact = await contactEmailOf(tx, studentId);
        if (!contact) continue;
        // The student's own zone when their browser has told us it, else the session's (decision 053).
        const timeZone = contact.timeZone ?? session.timeZone;
        await notify(
          tx,
          deps.notifications,
          {
            recipientId: studentId,
            kind: 'reminder',
            title: `${session.title} starts soon`,
            body: `${cls.title}, ${session.startsAt.toLocaleString('en-US', {
              timeZone,
              dateStyle: 'medium',
              timeStyle: 'short',
            })} (${timeZone})`,
            link: `/dashboard/myEnrollClass/${session.classId}`,
          },
          now,
        );
        queued++;
        // The mail is optional since the notification centre tells of it too (decision 047).
        if (!(await wantsNotification(tx, contact.email, 'sessionReminders'))) continue;
        await queueMail(
          tx,
          contact.email,
          sessionReminderMail({
            publicUrl: deps.publicUrl,
            name: contact.name,
            classId: session.classId,
            classTitle: cls.title,
            sessionTitle: session.title,
            startsAt: session.startsAt,
            timeZone,
            location: session.location,
          }),
        );
      }
      return queued;
    });
  }
  return sent;
}
