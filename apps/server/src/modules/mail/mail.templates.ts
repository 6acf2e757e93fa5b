import type { ReportTargetType } from '@skillhive/shared/rules/constants';
import { toOneLine } from '@skillhive/shared/rules/control-characters';
import { REPORTED_THING } from '@skillhive/shared/rules/report-form';

/**
 * One template per message: each gives a subject, a plain-text body
 * and an HTML body from the same words, with the product's name and a working link. Over 400
 * lines on purpose: a list of small independent templates, kept in one file so every mail's words
 * are read and changed together; it grows by one template per kind of mail.
 */
export interface RenderedMail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'SkillHive';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A subject is a header: one line. Titles stored before single-line fields refused control
 * characters (or a teacher's hostile one) must not add header lines, whatever the transport does.
 */
function oneLine(value: string): string {
  return toOneLine(value).trim();
}

/** "Hello Ada," — or "Hello," when the name is not the reader's own to trust. */
function greetingFor(name: string | null): string {
  return name ? `Hello ${name},` : 'Hello,';
}

/** The shared frame: a greeting, paragraphs, one call to action. */
function layout(input: {
  kind: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
}): RenderedMail {
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    `${input.action.label}: ${input.action.url}`,
    '',
    `— ${PRODUCT}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#1c1917">
<p>${escapeHtml(input.greeting)}</p>
${input.paragraphs.map((p) => `<p style="white-space:pre-line">${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(input.action.url)}">${escapeHtml(input.action.label)}</a></p>
<p>— ${PRODUCT}</p>
</body></html>`;
  return { kind: input.kind, subject: oneLine(`${input.subject} — ${PRODUCT}`), text, html };
}

export function teacherRequestDecidedMail(input: {
  publicUrl: string;
  name: string;
  approved: boolean;
  reason?: string | null | undefined;
}): RenderedMail {
  if (input.approved) {
    return layout({
      kind: 'teacher-request-approved',
      subject: 'You can teach on SkillHive now',
      greeting: `Hello ${input.name},`,
      paragraphs: ['Your application to teach was approved. You can add your first class from your dashboard.'],
      action: { label: 'Add a class', url: `${input.publicUrl}/dashboard/addClasses` },
    });
  }
  return layout({
    kind: 'teacher-request-rejected',
    subject: 'Your application to teach',
    greeting: `Hello ${input.name},`,
    paragraphs: [
      'Your application to teach was not approved this time.',
      ...(input.reason ? [`The reason: ${input.reason}`] : []),
      'You may apply again whenever you like.',
    ],
    action: { label: 'Apply again', url: `${input.publicUrl}/teach` },
  });
}

export function classDecidedMail(input: {
  publicUrl: string;
  teacherName: string;
  title: string;
  approved: boolean;
  reason?: string | null | undefined;
  /** A revision of an accepted class, rather than the class itself. */
  revision?: boolean;
}): RenderedMail {
  const what = input.revision ? `Your changes to "${input.title}"` : `Your class "${input.title}"`;
  const action = { label: 'See your classes', url: `${input.publicUrl}/dashboard/myClass` };
  if (input.approved) {
    return layout({
      kind: input.revision ? 'class-revision-approved' : 'class-approved',
      subject: input.revision ? 'Your class changes are live' : 'Your class is live',
      greeting: `Hello ${input.teacherName},`,
      paragraphs: [
        `${what} ${input.revision ? 'were' : 'was'} approved${input.revision ? ' and are' : ' and is'} on sale now.`,
      ],
      action,
    });
  }
  return layout({
    kind: input.revision ? 'class-revision-rejected' : 'class-rejected',
    subject: input.revision ? 'Your class changes were not approved' : 'Your class was not approved',
    greeting: `Hello ${input.teacherName},`,
    paragraphs: [
      `${what} ${input.revision ? 'were' : 'was'} not approved.`,
      ...(input.reason ? [`The reason: ${input.reason}`] : []),
      input.revision
        ? 'The approved version stays on sale. You can edit the class and send the changes again.'
        : 'You can edit the class and it goes back for review.',
    ],
    action,
  });
}

/** The receipt after a payment (amounts in cents, formatted here). */
export function paymentReceiptMail(input: {
  publicUrl: string;
  lines: { title: string; priceCents: number }[];
  totalCents: number;
  currency: string;
  transactionId: string;
  paidAt: Date;
}): RenderedMail {
  const money = (cents: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: input.currency.toUpperCase() }).format(cents / 100);
  return layout({
    kind: 'payment-receipt',
    subject: 'Your receipt',
    greeting: 'Hello,',
    paragraphs: [
      `Thank you for your payment of ${money(input.totalCents)} on ${input.paidAt.toISOString().slice(0, 10)}.`,
      ...input.lines.map((line) => `${line.title}: ${money(line.priceCents)}`),
      `Transaction: ${input.transactionId}`,
    ],
    action: { label: 'Open your classes', url: `${input.publicUrl}/dashboard/myEnrollClass` },
  });
}

/**
 * Sent at sign-up and on request: the link proves the address is the user's. Until it does, the
 * name on the account was chosen by whoever typed this address in, so the mail names no one.
 */
export function verifyEmailMail(input: { url: string }): RenderedMail {
  return layout({
    kind: 'verify-email',
    subject: 'Verify your e-mail address',
    greeting: greetingFor(null),
    paragraphs: [
      'Please confirm that this is your e-mail address. You need a verified address to apply to teach and to pay for classes.',
      'The link works for 24 hours. If you did not sign up, you can ignore this mail.',
    ],
    action: { label: 'Verify my e-mail address', url: input.url },
  });
}

/**
 * Sent to the new address when someone asks to change their e-mail; nothing changes until it is
 * followed. The address is not proven yet (it may not be the asker's), so the mail names no one.
 */
export function changeEmailMail(input: { newEmail: string; url: string }): RenderedMail {
  return layout({
    kind: 'change-email',
    subject: 'Confirm your new e-mail address',
    greeting: greetingFor(null),
    paragraphs: [
      `You asked to use ${input.newEmail} for your account. Your address changes when you follow this link.`,
      'The link works for 24 hours. If you did not ask for this, you can ignore this mail.',
    ],
    action: { label: 'Use this e-mail address', url: input.url },
  });
}

/**
 * To the account's current address when someone asks to move the account to another (decision
 * 028): a stolen session must not move it quietly. The link ends every session and cancels the
 * change. Sent to the address on the account, but it may not be proven, so it names no one.
 */
export function emailChangeRequestedMail(input: { newEmail: string; notMeUrl: string }): RenderedMail {
  return layout({
    kind: 'email-change-requested',
    subject: 'Your e-mail address is about to change',
    greeting: greetingFor(null),
    paragraphs: [
      `Someone signed in to your account asked to use ${oneLine(input.newEmail)} instead of this address. It changes when the link sent there is followed.`,
      'If this was not you, follow the link below: it signs your account out on every device and cancels the change. Then reset your password.',
    ],
    action: { label: 'This was not me', url: input.notMeUrl },
  });
}

/** To the address an account had, once a change of address is complete (decision 028). */
export function emailChangedMail(input: { newEmail: string; notMeUrl: string }): RenderedMail {
  return layout({
    kind: 'email-changed',
    subject: 'Your e-mail address was changed',
    greeting: greetingFor(null),
    paragraphs: [
      `Your account now uses ${oneLine(input.newEmail)} instead of this address.`,
      'If this was not you, follow the link below within 14 days: it signs your account out on every device and gives it this address back. Then reset your password.',
    ],
    action: { label: 'This was not me', url: input.notMeUrl },
  });
}

/** Password reset: one use, one hour, since the link grants the account. */
export function resetPasswordMail(input: { name: string | null; url: string }): RenderedMail {
  return layout({
    kind: 'reset-password',
    subject: 'Reset your password',
    greeting: greetingFor(input.name),
    paragraphs: [
      'Someone asked to reset the password of your account. If it was you, choose a new password with this link. It works once, for one hour.',
      'Resetting signs you out on every device. If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', url: input.url },
  });
}

/** A charge we could not fulfil is given back (decision 010); always sent, like the receipt. */
export function refundMail(input: {
  publicUrl: string;
  name: string;
  titles: string[];
  amountCents: number;
  currency: string;
  transactionId: string;
  /** Why: an admin's refund says so; without it, a purchase we could not complete. */
  reason?: string | undefined;
}): RenderedMail {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: input.currency.toUpperCase() }).format(
    input.amountCents / 100,
  );
  return layout({
    kind: 'refund',
    subject: 'Your payment is being refunded',
    greeting: `Hello ${input.name},`,
    paragraphs: [
      input.reason
        ? `We are refunding ${amount} of your payment (${input.reason}). Your bank may take a few days to show it.`
        : `We could not complete your purchase, so we are refunding the ${amount} you paid. Your bank may take a few days to show it.`,
      ...(input.titles.length > 0 ? [`It was for: ${input.titles.join(', ')}.`] : []),
      `Transaction: ${input.transactionId}`,
    ],
    action: { label: 'See your classes', url: `${input.publicUrl}/dashboard/myEnrollClass` },
  });
}

/** How a session's start reads in a mail: the teacher's zone, named (the student's own is unknown here). */
function sessionWhen(startsAt: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(startsAt);
}

/** A published session moved to another time (decision 021): every paid student is told. */
export function sessionRescheduledMail(input: {
  publicUrl: string;
  name: string;
  classId: string;
  classTitle: string;
  sessionTitle: string;
  before: { startsAt: Date; timeZone: string };
  after: { startsAt: Date; timeZone: string; durationMinutes: number };
}): RenderedMail {
  return layout({
    kind: 'session-rescheduled',
    subject: `New time for "${input.sessionTitle}"`,
    greeting: `Hello ${input.name},`,
    paragraphs: [
      `The session "${input.sessionTitle}" of ${input.classTitle} has a new time.`,
      `It was: ${sessionWhen(input.before.startsAt, input.before.timeZone)}.`,
      `It is now: ${sessionWhen(input.after.startsAt, input.after.timeZone)}, for ${input.after.durationMinutes} minutes.`,
      'Your class page shows it in your own time zone, and its calendar file has the new time.',
    ],
    action: { label: 'Open the class', url: `${input.publicUrl}/dashboard/myEnrollClass/${input.classId}` },
  });
}

/** A reminder SESSION_REMINDER_MINUTES before a session (decision 021), once per student and start. */
export function sessionReminderMail(input: {
  publicUrl: string;
  name: string;
  classId: string;
  classTitle: string;
  sessionTitle: string;
  startsAt: Date;
  timeZone: string;
  location: string | null;
}): RenderedMail {
  return layout({
    kind: 'session-reminder',
    subject: `Soon: "${input.sessionTitle}"`,
    greeting: `Hello ${input.name},`,
    paragraphs: [
      // In the zone named, the student's own when known (decision 053), so no one converts by hand.
      `The session "${input.sessionTitle}" of ${input.classTitle} starts ${sessionWhen(input.startsAt, input.timeZone)} (${input.timeZone} time).`,
      input.location
        ? `Where: ${input.location}.`
        : 'The meeting link appears on your class page shortly before the start.',
    ],
    action: { label: 'Open the class', url: `${input.publicUrl}/dashboard/myEnrollClass/${input.classId}` },
  });
}

/** The reporter hears what came of their report (decision 043); the reported person is not named. */
export function reportOutcomeMail(input: {
  publicUrl: string;
  name: string;
  targetType: ReportTargetType;
  actioned: boolean;
}): RenderedMail {
  return layout({
    kind: 'report-outcome',
    subject: 'About your report',
    greeting: greetingFor(input.name),
    paragraphs: [
      `Thank you for reporting ${REPORTED_THING[input.targetType]}. An admin looked at it.`,
      input.actioned
        ? 'We took action under our community rules. For privacy we do not say what.'
        : 'We found nothing against our community rules this time, so nothing was changed.',
    ],
    action: { label: 'Open SkillHive', url: input.publicUrl },
  });
}

/** The person whose content or conduct was reported: a warning, a hidden item, or a suspension (decision 043). */
export function moderationNoticeMail(input: {
  publicUrl: string;
  name: string;
  action: 'warn' | 'hide' | 'suspend';
  targetType: ReportTargetType;
  targetLabel: string;
  note?: string | null | undefined;
}): RenderedMail {
  const about =
    input.targetType === 'user' ? 'your conduct' : `your ${input.targetType} "${oneLine(input.targetLabel)}"`;
  const reason = input.note ? [`The admin's note: ${input.note}`] : [];
  if (input.action === 'suspend') {
    return layout({
      kind: 'account-suspended',
      subject: 'Your account is suspended',
      greeting: greetingFor(input.name),
      paragraphs: [
        `After a report about ${about}, an admin suspended your account. You are signed out everywhere and cannot sign in; your classes and reviews are hidden. Your payments and earnings records are kept.`,
        ...reason,
        'If you think this is a mistake, reply to this mail.',
      ],
      action: { label: 'Read the community rules', url: `${input.publicUrl}/` },
    });
  }
  return layout({
    kind: input.action === 'hide' ? 'content-hidden' : 'moderation-warning',
    subject: input.action === 'hide' ? `Your ${input.targetType} was hidden` : 'A warning from SkillHive',
    greeting: greetingFor(input.name),
    paragraphs: [
      input.action === 'hide'
        ? `After a report about ${about}, an admin hid it: nobody else sees it now.`
        : `After a report about ${about}, an admin sent you this warning. A further breach of our rules may suspend your account.`,
      ...reason,
    ],
    action: { label: 'Open your dashboard', url: `${input.publicUrl}/dashboard` },
  });
}

/**
 * A new message (decision 045): who wrote, about which class, and a short one-line preview of the
 * text, never the whole of it; the reader answers on SkillHive, where the thread lives. The
 * preview is text in the plain part and escaped in the HTML part, like every other value.
 */
export function newMessageMail(input: {
  publicUrl: string;
  name: string;
  senderName: string;
  classTitle: string;
  preview: string;
  threadId: string;
}): RenderedMail {
  return layout({
    kind: 'new-message',
    subject: `New message from ${input.senderName}`,
    greeting: greetingFor(input.name),
    paragraphs: [
      `${oneLine(input.senderName)} sent you a message about "${oneLine(input.classTitle)}":`,
      `"${input.preview}"`,
      'Reply on SkillHive: your e-mail address is never shown to them.',
    ],
    action: { label: 'Read and reply', url: `${input.publicUrl}/dashboard/messages/${input.threadId}` },
  });
}

/** A teacher's announcement to the students of a class (decision 050): the text is the mail. */
export function announcementMail(input: {
  publicUrl: string;
  name: string;
  teacherName: string;
  classTitle: string;
  classId: string;
  body: string;
}): RenderedMail {
  return layout({
    kind: 'announcement',
    subject: `${input.teacherName} about "${input.classTitle}"`,
    greeting: greetingFor(input.name),
    paragraphs: [
      `${oneLine(input.teacherName)} sent an announcement to the students of "${oneLine(input.classTitle)}":`,
      input.body,
    ],
    action: { label: 'Open the class', url: `${input.publicUrl}/dashboard/myEnrollClass/${input.classId}` },
  });
}

function moneyOf(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** The teacher's own words, quoted; none when they wrote nothing. */
function teacherWords(message: string | null): string[] {
  return message ? [`Your teacher wrote: "${message}"`] : [];
}

/**
 * A section was cancelled (decision 052): its paid student is told once, with the refund the same
 * transaction decided (the refund's own mail is not sent as well).
 */
export function sectionCancelledMail(input: {
  publicUrl: string;
  name: string;
  classTitle: string;
  reason: 'teacher' | 'minimum_not_met';
  refundedCents: number;
  currency: string;
  message: string | null;
}): RenderedMail {
  return layout({
    kind: 'section-cancelled',
    subject: `"${input.classTitle}" is cancelled`,
    greeting: `Hello ${input.name},`,
    paragraphs: [
      input.reason === 'minimum_not_met'
        ? `The section of ${input.classTitle} you enrolled in did not reach its minimum number of students by its enrollment deadline, so it is cancelled.`
        : `The teacher of ${input.classTitle} cancelled the section you enrolled in.`,
      ...teacherWords(input.message),
      input.refundedCents > 0
        ? `We are refunding the ${moneyOf(input.refundedCents, input.currency)} you paid, in full. Your bank may take a few days to show it.`
        : 'You paid nothing for it, so there is nothing to refund.',
    ],
    action: { label: 'See your payments', url: `${input.publicUrl}/dashboard/paymentHistory` },
  });
}

/** The teacher hears that a section was cancelled, and is offered to propose another date (decision 052). */
export function sectionCancelledTeacherMail(input: {
  publicUrl: string;
  name: string;
  classId: string;
  classTitle: string;
  reason: 'teacher' | 'minimum_not_met';
  enrolled: number;
  minimum: number | null;
}): RenderedMail {
  return layout({
    kind: 'section-cancelled-teacher',
    subject: `A section of "${input.classTitle}" is cancelled`,
    greeting: `Hello ${input.name},`,
    paragraphs: [
      input.reason === 'minimum_not_met'
        ? `A section of ${input.classTitle} had ${input.enrolled} paid student${input.enrolled === 1 ? '' : 's'} at its enrollment deadline, below its minimum of ${input.minimum ?? 0}, so it is cancelled.`
        : `A section of ${input.classTitle} is cancelled.`,
      `Its ${input.enrolled} paid student${input.enrolled === 1 ? ' is' : 's are'} refunded in full and told.`,
      'You can propose another date by adding a new section.',
    ],
    action: { label: 'Add a new section', url: `${input.publicUrl}/dashboard/my-class/${input.classId}` },
  });
}

/**
 * A section's sessions moved (decision 052): each paid student gets one mail with every new time
 * and, while it is open, the choice to keep the seat or be refunded in full.
 */
export function sectionRescheduledMail(input: {
  publicUrl: string;
  name: string;
  classTitle: string;
  sessions: { title: string; startsAt: Date; timeZone: string }[];
  openUntil: Date;
  timeZone: string;
  refundCents: number;
  currency: string;
  message: string | null;
}): RenderedMail {
  return layout({
    kind: 'section-rescheduled',
    subject: `New dates for "${input.classTitle}"`,
    greeting: `Hello ${input.name},`,
    paragraphs: [
      `The teacher of ${input.classTitle} moved the sessions of your section.`,
      ...teacherWords(input.message),
      ['The new times:', ...input.sessions.map((s) => `• ${s.title}: ${sessionWhen(s.startsAt, s.timeZone)}`)].join(
        '\n',
      ),
      input.refundCents > 0
        ? `If the new dates do not suit you, you can keep your seat or be refunded the ${moneyOf(input.refundCents, input.currency)} you paid, in full, until ${sessionWhen(input.openUntil, input.timeZone)}.`
        : 'Your class page shows the new times in your own time zone.',
    ],
    action: { label: 'Keep my seat or refund me', url: `${input.publicUrl}/dashboard/myEnrollClass` },
  });
}

/**
 * A seat of a full section is held for the first person waiting (decision 051): always sent, like
 * a receipt, since the offer runs out.
 */
export function waitlistOfferMail(input: {
  publicUrl: string;
  name: string;
  classId: string;
  classTitle: string;
  until: Date;
  timeZone: string;
}): RenderedMail {
  return layout({
    kind: 'waitlist-offer',
    subject: `A seat is yours: "${input.classTitle}"`,
    greeting: greetingFor(input.name),
    paragraphs: [
      `A seat of ${input.classTitle} freed up and you were next on its waiting list. It is held for you until ${sessionWhen(input.until, input.timeZone)}.`,
      'Enroll and pay before then; after that the seat passes to the next person waiting.',
    ],
    action: { label: 'Enroll now', url: `${input.publicUrl}/classes/${input.classId}` },
  });
}

/** The section a person waited for was cancelled (decision 051): they leave its waiting list. */
export function waitlistCancelledMail(input: {
  publicUrl: string;
  name: string;
  classId: string;
  classTitle: string;
}): RenderedMail {
  return layout({
    kind: 'waitlist-cancelled',
    subject: `Section cancelled: "${input.classTitle}"`,
    greeting: greetingFor(input.name),
    paragraphs: [
      `The section of ${input.classTitle} you were waiting for was cancelled, so its waiting list is closed. Nothing was charged.`,
      'Another section of the class may still have seats.',
    ],
    action: { label: 'See the class', url: `${input.publicUrl}/classes/${input.classId}` },
  });
}
