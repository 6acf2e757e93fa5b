import type { FastifyBaseLogger } from 'fastify';
import type {
  RescheduleAnswered,
  RescheduleOffer,
  SectionCancelled,
  SectionRescheduled,
} from '@skillhive/shared/contracts/sections';
import { CURRENCY } from '@skillhive/shared/rules/constants';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { RescheduleAnswerBody, RescheduleSectionBody } from '@skillhive/shared/rules/section-forms';
import { SECTION_MESSAGES, type SectionCancelReason } from '@skillhive/shared/rules/sections';
import { fromLocalDateTime } from '@skillhive/shared/rules/time-zones';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import { listSessionsOfSection, shiftSessionsOfSection } from '../content/sessions.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import type { PaymentGateway } from '../gateways/gateway.public.ts';
import {
  queueMail,
  sectionCancelledMail,
  sectionCancelledTeacherMail,
  sectionRescheduledMail,
} from '../mail/mail.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { askGateway, planLineRefundsIn, planRefund, type RefundPlan } from '../refunds/refunds.service.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import { assertStartsAfterDeadline } from './sections.public.ts';
import * as repo from './sections.repository.ts';
import { tellWaitlistOfCancellation } from '../waitlists/waitlists.service.ts';

/**
 * A section cancelled or rescheduled (decision 052). A cancellation is one transaction: the
 * section's row locked and flipped active → cancelled (only one caller wins), a full refund row
 * per paid line through the refunds module (so the ledger claws back and the reconciler finishes a
 * refund cut short), the holds of its carts released, and one mail and notification per student and
 * for the teacher. The gateway is asked after the commit, never inside it (DESIGN §2).
 */

export interface SectionChangesDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
  publicUrl: string;
  notifications: NotificationPublisher;
}

const REFUND_REASON: Record<SectionCancelReason, string> = {
  teacher: 'The section was cancelled by its teacher',
  minimum_not_met: 'The section did not reach its minimum by its enrollment deadline',
};

const sum = (values: readonly number[]) => values.reduce((total, n) => total + n, 0);

/** The section and its class, for its teacher or an admin: 404 unknown, 403 anyone else. */
async function loadChangeableSection(db: Db, viewer: Viewer, sectionId: string) {
  const section = enrollments.isUuid(sectionId) ? await repo.findSection(db, sectionId) : null;
  if (!section) throw notFound('Section');
  const cls = await findClassForEnrollment(db, section.classId);
  if (!cls) throw notFound('Section');
  if (cls.teacherId !== viewer.id && !viewer.isAdmin) throw forbidden(CONTENT_MESSAGES.notOwner);
  return { section, cls };
}

type Cancellation = {
  section: repo.SectionRow;
  refunded: number;
  plans: RefundPlan[];
};

/**
 * Cancels a running section in one transaction; null when it is not running any more (another
 * caller, instance or click won: nothing is done twice). `minimumCheck` is the job's: the section
 * is cancelled only when its deadline passed with fewer paid students than its minimum, and one at
 * or above it is marked so and left running. `skipLocked` leaves a section another transaction
 * holds to that transaction. A teacher's cancellation is refused once a session has started.
 */
async function cancelInTransaction(
  deps: SectionChangesDeps,
  input: {
    sectionId: string;
    reason: SectionCancelReason;
    message: string | null;
    actorId: string | null;
    minimumCheck: boolean;
    skipLocked: boolean;
  },
): Promise<Cancellation | null> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const locked = await repo.lockSectionRow(tx, input.sectionId, { skipLocked: input.skipLocked });
    if (!locked || locked.status !== 'active') return null;
    const paidBefore = await enrollments.paidCountOfSection(tx, locked.id);
    if (input.minimumCheck) {
      if (locked.minimum === null || !locked.enrollClosesAt || locked.enrollClosesAt > now) return null;
      if (paidBefore >= locked.minimum) {
        await repo.markMinimumMet(tx, locked.id, now);
        return null;
      }
    } else {
      const sessions = await listSessionsOfSection(tx, locked.classId, locked.id);
      if (sessions.some((session) => session.startsAt <= now)) throw conflict(SECTION_MESSAGES.sessionHeld);
    }
    const section = await repo.markCancelled(tx, locked.id, { reason: input.reason, message: input.message, at: now });
    if (!section) return null;
    const lines = await enrollments.getPaidLinesOfSection(tx, section.id);
    const plans = await planLineRefundsIn(tx, deps, lines, {
      reason: REFUND_REASON[input.reason],
      actorId: input.actorId,
      studentTold: true,
    });
    await enrollments.releaseSeatHoldsOfSection(tx, section.id);
    const refundOf = new Map(plans.flatMap((plan) => plan.rows).map((row) => [row.enrollmentId, row]));
    const cls = await findClassForEnrollment(tx, section.classId);
    const title = cls?.title ?? lines[0]?.title ?? 'your class';
    for (const line of lines) {
      if (!line.studentId) continue;
      const refund = refundOf.get(line.id);
      await tellStudentOfCancellation(tx, deps, {
        studentId: line.studentId,
        classTitle: title,
        reason: input.reason,
        message: input.message,
        refundedCents: refund?.amountCents ?? 0,
        currency: refund?.currency ?? CURRENCY,
      });
    }
    // Whoever waited for a seat is told the section is gone (decision 051).
    await tellWaitlistOfCancellation(tx, deps, section.id, now);
    if (cls?.teacherId) {
      await tellTeacherOfCancellation(tx, deps, {
        teacherId: cls.teacherId,
        classId: section.classId,
        classTitle: title,
        reason: input.reason,
        enrolled: lines.length,
        minimum: section.minimum,
      });
    }
    return { section, refunded: lines.length, plans };
  });
}

async function tellStudentOfCancellation(
  tx: Db,
  deps: SectionChangesDeps,
  input: {
    studentId: string;
    classTitle: string;
    reason: SectionCancelReason;
    message: string | null;
    refundedCents: number;
    currency: string;
  },
): Promise<void> {
  const student = await contactEmailOf(tx, input.studentId);
  if (!student) return;
  await queueMail(
    tx,
    student.email,
    sectionCancelledMail({
      publicUrl: deps.publicUrl,
      name: student.name,
      classTitle: input.classTitle,
      reason: input.reason,
      refundedCents: input.refundedCents,
      currency: input.currency,
      message: input.message,
    }),
  );
  await notify(
    tx,
    deps.notifications,
    {
      recipientId: input.studentId,
      kind: 'schedule',
      title: `${input.classTitle} is cancelled`,
      body: input.refundedCents > 0 ? 'You are refunded in full.' : 'There was nothing to refund.',
      link: '/dashboard/paymentHistory',
    },
    deps.now(),
  );
}

async function tellTeacherOfCancellation(
  tx: Db,
  deps: SectionChangesDeps,
  input: {
    teacherId: string;
    classId: string;
    classTitle: string;
    reason: SectionCancelReason;
    enrolled: number;
    minimum: number | null;
  },
): Promise<void> {
  const teacher = await contactEmailOf(tx, input.teacherId);
  if (!teacher) return;
  await queueMail(
    tx,
    teacher.email,
    sectionCancelledTeacherMail({ publicUrl: deps.publicUrl, name: teacher.name, ...input }),
  );
  await notify(
    tx,
    deps.notifications,
    {
      recipientId: input.teacherId,
      kind: 'schedule',
      title: `A section of ${input.classTitle} is cancelled`,
      body: 'Its students are refunded. Propose another date by adding a new section.',
      link: `/dashboard/my-class/${input.classId}`,
    },
    deps.now(),
  );
}

/**
 * After the commit: the gateway is asked for each refund. A failure leaves the refund pending,
 * and the reconciler finishes it after the grace (decision 031).
 */
async function finishRefunds(deps: SectionChangesDeps, plans: readonly RefundPlan[]): Promise<void> {
  for (const plan of plans) {
    try {
      await askGateway(deps, plan.payment, plan.rows);
    } catch (error) {
      deps.log.warn({ err: error, paymentId: plan.payment.id }, 'refund of a cancelled section left to the reconciler');
    }
  }
}

/** POST /api/sections/:id/cancel: its teacher or an admin; 409 once cancelled or once a session started. */
export async function cancelSectionByTeacher(
  deps: SectionChangesDeps,
  viewer: Viewer,
  sectionId: string,
  body: { message: string },
): Promise<SectionCancelled> {
  await loadChangeableSection(deps.db, viewer, sectionId);
  const done = await cancelInTransaction(deps, {
    sectionId,
    reason: 'teacher',
    message: body.message.trim() || null,
    actorId: viewer.id,
    minimumCheck: false,
    skipLocked: false,
  });
  if (!done) throw conflict(SECTION_MESSAGES.cancelled);
  await finishRefunds(deps, done.plans);
  return { success: true, refunded: done.refunded };
}

/**
 * The cancellation job's pass (decision 052): each running section whose enrollment deadline has
 * passed with fewer paid students than its minimum is cancelled; one at or above it is marked and
 * never looked at again. Safe on several instances at once: a section another instance holds is
 * skipped, and only one transaction flips it. Answers the sections cancelled.
 */
export async function cancelSectionsUnderMinimum(deps: SectionChangesDeps): Promise<number> {
  let cancelled = 0;
  for (;;) {
    const due = await repo.listSectionsPastDeadline(deps.db, deps.now(), 50);
    let progressed = false;
    for (const section of due) {
      const done = await cancelInTransaction(deps, {
        sectionId: section.id,
        reason: 'minimum_not_met',
        message: null,
        actorId: null,
        minimumCheck: true,
        skipLocked: true,
      });
      if (done) {
        cancelled += 1;
        await finishRefunds(deps, done.plans);
      }
      const after = await repo.findSection(deps.db, section.id);
      if (after && (after.status !== 'active' || after.minimumMetAt)) progressed = true;
    }
    if (due.length < 50 || !progressed) return cancelled;
  }
}

/**
 * POST /api/sections/:id/reschedule: every session of the section moves by as much as its first
 * one does to `firstStartsAt` (a wall-clock time in the section's zone). Refused once a session has
 * started (409), for a cancelled section (409), with no sessions (409), into the past or before the
 * enrollment deadline (400). Each paid student is mailed once with every new time and may keep the
 * seat or be refunded in full until the new first session.
 */
export async function rescheduleSection(
  deps: SectionChangesDeps,
  viewer: Viewer,
  sectionId: string,
  body: RescheduleSectionBody,
): Promise<SectionRescheduled> {
  await loadChangeableSection(deps.db, viewer, sectionId);
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const section = await repo.lockSectionRow(tx, sectionId, { skipLocked: false });
    if (!section) throw notFound('Section');
    if (section.status === 'cancelled') throw conflict(SECTION_MESSAGES.cancelled);
    const sessions = await listSessionsOfSection(tx, section.classId, section.id);
    const first = sessions[0];
    if (!first) throw conflict(SECTION_MESSAGES.noSessions);
    if (sessions.some((session) => session.startsAt <= now)) throw conflict(SECTION_MESSAGES.sessionHeld);
    const refuse = (message: string) =>
      new AppError(ErrorCode.VALIDATION, message, { fields: { firstStartsAt: message } });
    const startsAt = fromLocalDateTime(body.firstStartsAt, section.timeZone);
    if (!startsAt) throw refuse(SECTION_MESSAGES.timeSkipped);
    if (startsAt <= now) throw refuse(SECTION_MESSAGES.startInPast);
    if (startsAt.getTime() === first.startsAt.getTime()) throw refuse(SECTION_MESSAGES.sameTime);
    assertStartsAfterDeadline(section, startsAt);
    const lines = await enrollments.getPaidLinesOfSection(tx, section.id);
    const studentIds = [...new Set(lines.flatMap((line) => (line.studentId ? [line.studentId] : [])))];
    const moved = await shiftSessionsOfSection(tx, {
      classId: section.classId,
      sectionId: section.id,
      shiftMs: startsAt.getTime() - first.startsAt.getTime(),
      studentIds,
      now,
    });
    await repo.markRescheduled(tx, section.id, now);
    const offered = lines.filter((line) => line.studentId && line.paidCents > 0);
    await repo.upsertRescheduleOffers(
      tx,
      offered.map((line) => ({
        enrollmentId: line.id,
        sectionId: section.id,
        studentId: line.studentId!,
        offeredAt: now,
        openUntil: startsAt,
      })),
    );
    const cls = await findClassForEnrollment(tx, section.classId);
    const published = moved.filter((session) => session.publishedAt);
    const message = body.message.trim() || null;
    for (const line of lines) {
      if (!line.studentId) continue;
      const student = await contactEmailOf(tx, line.studentId);
      if (!student) continue;
      const classTitle = cls?.title ?? line.title;
      await queueMail(
        tx,
        student.email,
        sectionRescheduledMail({
          publicUrl: deps.publicUrl,
          name: student.name,
          classTitle,
          sessions: published.map((s) => ({ title: s.title, startsAt: s.startsAt, timeZone: s.timeZone })),
          openUntil: startsAt,
          timeZone: section.timeZone,
          refundCents: line.paidCents,
          currency: CURRENCY,
          message,
        }),
      );
      await notify(
        tx,
        deps.notifications,
        {
          recipientId: line.studentId,
          kind: 'schedule',
          title: `New dates for ${classTitle}`,
          body: line.paidCents > 0 ? 'Keep your seat, or be refunded in full.' : 'Your class page shows the new times.',
          link: '/dashboard/myEnrollClass',
        },
        now,
      );
    }
    return { modifiedCount: moved.length, firstSessionAt: startsAt.toISOString(), offered: offered.length };
  });
}

/** GET /api/reschedule-offers: the signed-in student's open choices, with their section's new times. */
export async function listOpenOffers(
  deps: Pick<SectionChangesDeps, 'db' | 'now'>,
  viewer: Viewer,
): Promise<RescheduleOffer[]> {
  const offers = await repo.listOpenOffersOfStudent(deps.db, viewer.id, deps.now());
  const lines = new Map(
    (
      await enrollments.getLinesByIds(
        deps.db,
        offers.map((offer) => offer.enrollmentId),
      )
    ).map((line) => [line.id, line]),
  );
  const answer: RescheduleOffer[] = [];
  for (const offer of offers) {
    const line = lines.get(offer.enrollmentId);
    if (!line || line.status !== 'paid') continue;
    const sessions = (await listSessionsOfSection(deps.db, line.classId, offer.sectionId)).filter((s) => s.publishedAt);
    answer.push({
      enrollmentId: offer.enrollmentId,
      classId: line.classId,
      title: line.title,
      openUntil: offer.openUntil.toISOString(),
      amountCents: line.paidCents,
      sessions: sessions.map((s) => ({
        title: s.title,
        startsAt: s.startsAt.toISOString(),
        durationMinutes: s.durationMinutes,
      })),
    });
  }
  return answer;
}

/**
 * POST /api/reschedule-offers/:id: the student keeps the seat, or is refunded that line in full
 * without an admin's approval. 404 for no offer of theirs, 409 once answered or once the new first
 * session has started. A refund whose gateway step fails stays pending for the reconciler.
 */
export async function answerOffer(
  deps: SectionChangesDeps & { refundWindowDays: number },
  viewer: Viewer,
  enrollmentId: string,
  body: RescheduleAnswerBody,
): Promise<RescheduleAnswered> {
  const offerNotFound = () => new AppError(ErrorCode.NOT_FOUND, SECTION_MESSAGES.offerNotFound);
  if (!enrollments.isUuid(enrollmentId)) throw offerNotFound();
  const line = await deps.db.transaction(async (tx) => {
    const offer = await repo.findOfferForUpdate(tx, enrollmentId);
    if (!offer || offer.studentId !== viewer.id) throw offerNotFound();
    if (offer.answer) throw conflict(SECTION_MESSAGES.offerAnswered);
    if (offer.openUntil <= deps.now()) throw conflict(SECTION_MESSAGES.offerClosed);
    const [found] = await enrollments.getLinesByIds(tx, [enrollmentId]);
    if (!found || found.status !== 'paid' || !found.paymentId) throw conflict(SECTION_MESSAGES.offerAnswered);
    if (body.answer === 'keep') await repo.answerOffer(tx, enrollmentId, 'keep', deps.now());
    return found;
  });
  if (body.answer === 'keep') return { answer: 'keep', refundedCents: 0, pending: false };
  const plan = await planRefund(deps, viewer, line.paymentId!, {
    enrollmentId,
    reason: 'The section was rescheduled and the student asked for a refund',
  });
  await deps.db.transaction((tx) => repo.answerOffer(tx, enrollmentId, 'refund', deps.now()));
  let done;
  try {
    done = await askGateway(deps, plan.payment, plan.rows);
  } catch (error) {
    deps.log.warn({ err: error, enrollmentId }, 'refund of a rescheduled section left to the reconciler');
    return { answer: 'refund', refundedCents: 0, pending: true };
  }
  return {
    answer: 'refund',
    refundedCents: sum(done.filter((row) => row.status === 'succeeded').map((row) => row.amountCents)),
    pending: done.some((row) => row.status === 'pending'),
  };
}
