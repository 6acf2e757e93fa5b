import { describe, expect, it } from 'vitest';
import { classDecidedMail, sessionReminderMail, sessionRescheduledMail } from './mail.templates.ts';

/**
 * A subject is a mail header: whatever a title holds (one stored before single-line fields refused
 * control characters), the subject stays one line, so it cannot add headers or a body.
 */
const HOSTILE = 'Week 1\r\nBcc: everyone@example.test\r\n\r\nFree money\u0007\u2028';

describe('mail subjects', () => {
  it('are one line whatever the titles hold, with the words kept', () => {
    const when = { startsAt: new Date('2026-06-01T10:00:00Z'), timeZone: 'UTC' };
    const mails = [
      sessionReminderMail({
        publicUrl: 'https://skillhive.example',
        name: 'Ada',
        classId: 'c1',
        classTitle: HOSTILE,
        sessionTitle: HOSTILE,
        ...when,
        location: null,
      }),
      sessionRescheduledMail({
        publicUrl: 'https://skillhive.example',
        name: 'Ada',
        classId: 'c1',
        classTitle: HOSTILE,
        sessionTitle: HOSTILE,
        before: when,
        after: { ...when, durationMinutes: 60 },
      }),
      classDecidedMail({
        publicUrl: 'https://skillhive.example',
        teacherName: HOSTILE,
        title: HOSTILE,
        approved: false,
        reason: HOSTILE,
      }),
    ];
    for (const mail of mails) {
      // eslint-disable-next-line no-control-regex -- control characters are what this test is about
      expect(mail.subject).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      expect(mail.subject).toMatch(/ — SkillHive$/);
    }
    expect(mails[0]!.subject).toBe('Soon: "Week 1 Bcc: everyone@example.test Free money " — SkillHive');
  });
});
