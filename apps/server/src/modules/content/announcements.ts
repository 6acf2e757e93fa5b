import type { Announcement } from '@skillhive/shared/contracts/content';
import { ANNOUNCEMENT_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { conflict } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { announcementMail, queueMail } from '../mail/mail.service.ts';
import { type NotificationPublisher, notify } from '../notifications/notifications.public.ts';
import { findSectionOfClass } from '../sections/sections.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import * as repo from './announcements.repository.ts';
import { loadOwnedClass, loadViewableClass } from './content-access.ts';

/*
 * Announcements (decision 050): a class's teacher tells every student who paid for the class, or
 * for one of its sections, something at once ("the link changed"). Each is mailed to them in the
 * same transaction that records it, put in their notification centre (decision 047), and listed
 * on the class's page for its students.
 */

/** How many of a class's latest announcements a list shows. */
const LIST_MAX = 50;

function toAnnouncement(row: repo.AnnouncementRow): Announcement {
  return {
    _id: row.id,
    classId: row.classId,
    sectionId: row.sectionId,
    body: row.body,
    recipients: row.recipients,
    createdAt: row.createdAt.toISOString(),
  };
}

/** POST /api/classes/:id/announcements: its teacher only; 409 while nobody has paid for it. */
export async function postAnnouncement(
  db: Db,
  viewer: Viewer,
  classId: string,
  input: { body: string; sectionId?: string | undefined },
  deps: { now: Date; publicUrl: string; notifications: NotificationPublisher },
): Promise<Announcement> {
  const { publicUrl } = deps;
  const cls = await loadOwnedClass(db, viewer, classId);
  const section = input.sectionId ? await findSectionOfClass(db, classId, input.sectionId) : null;
  const studentIds = await enrollments.listPaidStudentIdsOfClass(db, classId, section?.id);
  if (studentIds.length === 0) throw conflict(ANNOUNCEMENT_MESSAGES.noStudents);
  return db.transaction(async (tx) => {
    const row = await repo.insertAnnouncement(tx, {
      classId,
      sectionId: section?.id ?? null,
      teacherId: viewer.id,
      body: input.body,
      recipients: studentIds.length,
    });
    for (const studentId of studentIds) {
      const student = await contactEmailOf(tx, studentId);
      if (!student) continue;
      // In the notification centre too (decision 047), unless the student turned announcements off there.
      await notify(
        tx,
        deps.notifications,
        {
          recipientId: studentId,
          kind: 'announcement',
          title: `${viewer.name} about ${cls.title}`,
          body: input.body,
          link: `/dashboard/myEnrollClass/${classId}`,
        },
        deps.now,
      );
      await queueMail(
        tx,
        student.email,
        announcementMail({
          publicUrl,
          name: student.name,
          teacherName: viewer.name,
          classTitle: cls.title,
          classId,
          body: input.body,
        }),
      );
    }
    return toAnnouncement(row);
  });
}

/**
 * GET /api/classes/:id/announcements: its teacher and admins read all of them; a student who paid
 * reads those to the whole class and to the sections they paid for; anyone else gets the 409 of
 * the class's content (DESIGN §3).
 */
export async function listAnnouncements(db: Db, viewer: Viewer, classId: string): Promise<Announcement[]> {
  const { role } = await loadViewableClass(db, viewer, classId);
  const sectionIds = role === 'student' ? await enrollments.listPaidSectionIdsOf(db, viewer.id, classId) : null;
  const rows = await repo.listAnnouncements(db, classId, { sectionIds, limit: LIST_MAX });
  return rows.map(toAnnouncement);
}
