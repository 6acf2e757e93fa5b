/*
 * Above the modules, unlike the rest of db/ (decision 015): the demo data is made as the product
 * makes it — passwords hashed by auth, enrollments copied by enrollments, images processed by
 * uploads — so a seeded database is one the app could have written.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, like, notInArray, sql } from 'drizzle-orm';
import { CATEGORIES, CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { hashPassword } from '../modules/auth/password.ts';
import { clawBackLines, recordSale } from '../modules/earnings/earnings.public.ts';
import { releaseDue } from '../modules/earnings/ledger.ts';
import { decidePayout } from '../modules/earnings/payouts.ts';
import { pendingEnrollmentOf } from '../modules/enrollments/enrollments.service.ts';
import type { ImageStorage } from '../modules/uploads/storage.public.ts';
import { DEMO_ADMIN_EMAIL } from '../env.ts';
import type { Db } from './client.ts';
import { schema } from './client.ts';
import { insertClassroom, insertProgress, storeClassroomFiles, type LiveClass } from './seed-classroom.ts';
import {
  CATEGORY_COLOURS,
  FIRST,
  LAST,
  REVIEW_TEXTS,
  TOPICS,
  generatedImage,
  storeImage,
  type UploadRow,
} from './seed-fixtures.ts';
import { insertRefunds, refundedAtOf } from './seed-refunds.ts';

/** The demo password of every seeded account (README lists the logins). */
export const DEMO_PASSWORD = 'Demo!Pass1';
export const DEMO_DOMAIN = 'skillhive.test';

export interface SeedResult {
  password: string;
  logins: { role: 'admin' | 'teacher' | 'student'; email: string }[];
}

/**
 * Demo data (SEED, DESIGN §5) into an empty database; returns null when users already exist.
 * `adminEmails` is ADMIN_EMAILS: the demo admin is an admin only when it is named there, since
 * every demo account's password is published (docs/SECURITY.md).
 */
export async function seedIfEmpty(
  db: Db,
  storage: ImageStorage,
  adminEmails: readonly string[],
): Promise<SeedResult | null> {
  const [row] = await db.select({ n: count() }).from(schema.users);
  if ((row?.n ?? 0) > 0) return null;
  return seed(db, storage, adminEmails);
}

/**
 * Takes admin rights from demo accounts (e-mails at DEMO_DOMAIN) that ADMIN_EMAILS does not name,
 * for databases seeded before that rule; returns their e-mails.
 */
export async function revokeDemoAdmins(db: Db, adminEmails: readonly string[]): Promise<string[]> {
  const rows = await db
    .update(schema.users)
    .set({ isAdmin: false, updatedAt: new Date() })
    .where(
      and(
        eq(schema.users.isAdmin, true),
        like(schema.users.email, `%@${DEMO_DOMAIN}`),
        adminEmails.length > 0 ? notInArray(schema.users.email, [...adminEmails]) : undefined,
      ),
    )
    .returning({ email: schema.users.email });
  return rows.map((r) => r.email);
}

/**
 * The pictures are rendered and stored first (storage may be a network call, which must not hold
 * a database transaction); then every row goes in one transaction, so a crash mid-seed leaves an
 * empty database, never a half-seeded one. A second seeder (another instance starting at the same
 * time) waits on the advisory lock, finds users and gives up: null.
 */
export async function seed(db: Db, storage: ImageStorage, adminEmails: readonly string[]): Promise<SeedResult | null> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const uploadRows: UploadRow[] = [];
  const day = 24 * 60 * 60 * 1000;
  // The seed's clock: every date is relative to it, so each run makes the same data.
  const now = new Date();
  const start = now.getTime() - 60 * day;

  type Person = { id: string; name: string; email: string; role: 'admin' | 'teacher' | 'student'; image: string };
  const people: Person[] = [];
  const avatarColours = Object.values(CATEGORY_COLOURS);
  const makePerson = async (role: Person['role'], index: number, n: number): Promise<Person> => {
    const id = randomUUID();
    const name = `${FIRST[n % FIRST.length]} ${LAST[n % LAST.length]}`;
    const email = role === 'admin' ? DEMO_ADMIN_EMAIL : `${role}${index}@${DEMO_DOMAIN}`;
    const svg = generatedImage(avatarColours[n % avatarColours.length]!, n + 7, 256, 256);
    return { id, name, email, role, image: storage.publicUrl(await storeImage(storage, svg, null, uploadRows)) };
  };
  // Pictures are generated in parallel (sharp works on the libuv pool): the seed is part of the
  // first start, which should be ready within 5 s (DESIGN §6, measured by bench/).
  const roles: [Person['role'], number][] = [
    ['admin', 0],
    ...[1, 2, 3].map((i): [Person['role'], number] => ['teacher', i]),
    ...Array.from({ length: 12 }, (_, k): [Person['role'], number] => ['student', k + 1]),
  ];
  people.push(...(await Promise.all(roles.map(([role, index], n) => makePerson(role, index, n)))));
  const teachers = people.filter((p) => p.role === 'teacher');
  const students = people.filter((p) => p.role === 'student');
  const admin = people[0]!;
  // Three pictures per category (classes i and i + 3 share one), generated in parallel.
  const classImages = new Map<string, string>();
  await Promise.all(
    CATEGORIES.flatMap((category, k) =>
      [0, 1, 2].map(async (i) => {
        const c = k * 6 + i;
        const svg = generatedImage(CATEGORY_COLOURS[category], i * 13 + c, 1200, 675);
        classImages.set(
          `${category}-${i}`,
          await storeImage(storage, svg, teachers[c % teachers.length]!.id, uploadRows),
        );
      }),
    ),
  );

  // The live classes' files (decision 021): an outline and a cheat sheet each, stored before the
  // transaction as the pictures are. The first four of each category are accepted (below).
  const liveOrder = CATEGORIES.flatMap((category, k) => [0, 1, 2, 3].map((i) => ({ category, i, c: k * 6 + i })));
  const classroomFiles = await storeClassroomFiles(
    storage,
    liveOrder.map(({ category, i, c }) => ({
      key: `${category}-${i}`,
      title: TOPICS[category][i]!,
      teacherId: teachers[c % teachers.length]!.id,
      picture: generatedImage(CATEGORY_COLOURS[category], c * 7 + 3, 480, 270),
    })),
    uploadRows,
  );

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('skillhive-demo-seed'))`);
    const [existing] = await tx.select({ n: count() }).from(schema.users);
    if ((existing?.n ?? 0) > 0) return null;

    await tx.insert(schema.users).values(
      people.map((p, i) => ({
        id: p.id,
        name: p.name,
        email: p.email,
        emailVerified: true,
        image: p.image,
        phone: `+1 555-010-${String(1000 + i).slice(1)}`,
        isAdmin: p.role === 'admin' && adminEmails.includes(p.email),
        isTeacher: p.role === 'teacher',
        createdAt: new Date(start + i * 3600_000),
      })),
    );
    await tx.insert(schema.accounts).values(
      people.map((p) => ({
        id: randomUUID(),
        accountId: p.id,
        providerId: 'credential',
        userId: p.id,
        password: passwordHash,
      })),
    );
    // Owners first: uploads refer to users.
    await tx.insert(schema.uploads).values(uploadRows).onConflictDoNothing();

    await tx.insert(schema.teacherRequests).values(
      teachers.map((t, i) => ({
        userId: t.id,
        name: t.name,
        email: t.email,
        image: t.image,
        experience: (['experienced', 'mid-level', 'beginner'] as const)[i % 3]!,
        title: `${CATEGORY_LABELS[CATEGORIES[i]!]} instructor`,
        category: CATEGORIES[i]!,
        status: 'approved' as const,
        decidedBy: admin.id,
        decidedAt: new Date(start + day),
        createdAt: new Date(start + 12 * 3600_000),
      })),
    );
    // Two students are waiting for a decision, so the admin screen has work on it.
    await tx.insert(schema.teacherRequests).values(
      students.slice(0, 2).map((s, i) => ({
        userId: s.id,
        name: s.name,
        email: s.email,
        image: s.image,
        experience: 'mid-level' as const,
        title: i === 0 ? 'Front-end mentor' : 'Data storyteller',
        category: i === 0 ? ('web-development' as const) : ('data-science' as const),
        createdAt: new Date(now.getTime() - (i + 1) * day),
      })),
    );

    // 36 classes: six per category, in all three statuses.
    const classRows: (typeof schema.classes.$inferInsert & { id: string })[] = [];
    let c = 0;
    for (const category of CATEGORIES) {
      for (let i = 0; i < 6; i++) {
        const teacher = teachers[c % teachers.length]!;
        const key = classImages.get(`${category}-${i % 3}`)!;
        const status = i < 4 ? 'accepted' : i === 4 ? 'pending' : 'rejected';
        classRows.push({
          id: randomUUID(),
          teacherId: teacher.id,
          teacherName: teacher.name,
          teacherEmail: teacher.email,
          title: TOPICS[category][i]!,
          description: `${TOPICS[category][i]} — a hands-on class in ${CATEGORY_LABELS[category].toLowerCase()}. Weekly live sessions, exercises with feedback, and a final project you can show.`,
          priceCents: 1900 + ((c * 700) % 8000),
          imageKey: key,
          category,
          status,
          rejectionReason: status === 'rejected' ? 'Please add a week-by-week outline to the description.' : null,
          createdAt: new Date(start + (c + 2) * day),
          updatedAt: new Date(start + (c + 2) * day),
        });
        c++;
      }
    }
    await tx.insert(schema.classes).values(classRows);
    const accepted = classRows.filter((r) => r.status === 'accepted');
    // Every accepted class is live: a section in its zone with weekly sessions and materials.
    const live: LiveClass[] = accepted.map((cls, index) => {
      const category = cls.category!;
      return { id: cls.id, title: cls.title, fileKey: `${category}-${TOPICS[category].indexOf(cls.title)}`, index };
    });
    const classroom = await insertClassroom(tx, { live, files: classroomFiles, now });

    // Enrollments: each student has three paid classes (one payment) and one pending in the cart,
    // bought before the first session, so their progress is of sessions held since. The first
    // student's lines carry a refund request each: approved (refunded), declined, pending.
    const enrollmentRows: (typeof schema.enrollments.$inferInsert)[] = [];
    const paymentRows: (typeof schema.payments.$inferInsert)[] = [];
    const reviewRows: (typeof schema.reviews.$inferInsert)[] = [];
    const enrollCounts = new Map<string, number>();
    const ratings = new Map<string, { sum: number; n: number }>();
    students.forEach((student, s) => {
      const chosen = [0, 1, 2, 3].map((k) => accepted[(s * 5 + k * 7) % accepted.length]!);
      const unique = [...new Map(chosen.map((x) => [x.id, x])).values()];
      const paid = unique.slice(0, 3);
      const pending = unique.slice(3);
      const paymentId = randomUUID();
      const paidAt = new Date(now.getTime() - (22 + s) * day);
      const paidEnrollments = paid.map((cls, k) => ({
        ...pendingEnrollmentOf(cls, student),
        id: randomUUID(),
        sectionId: classroom.sectionOf.get(cls.id) ?? null,
        // Demo payments use no coupon: each line paid its price (decision 019).
        paidCents: cls.priceCents,
        status: s === 0 && k === 2 ? ('refunded' as const) : ('paid' as const),
        refundedAt: s === 0 && k === 2 ? refundedAtOf(paidAt) : null,
        paymentId,
        paidAt,
        createdAt: new Date(paidAt.getTime() - 3600_000),
      }));
      paymentRows.push({
        id: paymentId,
        studentId: student.id,
        email: student.email,
        amountCents: paid.reduce((sum, x) => sum + x.priceCents, 0),
        gateway: 'test',
        transactionId: `pi_seed_${s + 1}`,
        cartIds: paidEnrollments.map((e) => e.id),
        menuItemIds: paid.map((x) => x.id),
        status: 'succeeded',
        data: paidAt,
        createdAt: paidAt,
      });
      enrollmentRows.push(...paidEnrollments);
      for (const cls of pending) {
        enrollmentRows.push({
          ...pendingEnrollmentOf(cls, student),
          sectionId: classroom.sectionOf.get(cls.id) ?? null,
        });
      }
      // The public count is of paid students (decision 003), not of cart lines or refunded ones.
      for (const line of paidEnrollments) {
        if (line.status === 'paid') enrollCounts.set(line.classId, (enrollCounts.get(line.classId) ?? 0) + 1);
      }
      // One review per student: 12 reviews.
      const reviewed = paid[0]!;
      const rating = 3 + ((s * 7) % 3);
      reviewRows.push({
        classId: reviewed.id,
        studentId: student.id,
        rating,
        details: REVIEW_TEXTS[s % REVIEW_TEXTS.length]!,
        // After two sessions attended (insertProgress): a verified review (decision 021).
        createdAt: new Date(paidAt.getTime() + 14 * day),
      });
      const agg = ratings.get(reviewed.id) ?? { sum: 0, n: 0 };
      ratings.set(reviewed.id, { sum: agg.sum + rating, n: agg.n + 1 });
    });
    await tx.insert(schema.payments).values(paymentRows);
    await tx.insert(schema.enrollments).values(enrollmentRows);
    await tx.insert(schema.reviews).values(reviewRows);
    // The earnings ledger of those payments, as fulfilment writes it (decision 039): the shares of
    // the older ones are released, and the first teacher has been paid once by manual payout.
    const teacherOf = new Map(classRows.map((cls) => [cls.id, cls.teacherId]));
    const ledger = { platformBasisPoints: 2000, refundWindowDays: 14 };
    for (const payment of paymentRows) {
      const lines = enrollmentRows.filter((e) => e.paymentId === payment.id);
      await recordSale(tx, ledger, {
        paymentId: payment.id!,
        transactionId: payment.transactionId,
        studentName: students.find((student) => student.id === payment.studentId)?.name ?? null,
        currency: 'usd',
        paidAt: payment.data as Date,
        coupon: null,
        lines: lines.map((line) => ({
          id: line.id!,
          classId: line.classId,
          teacherId: teacherOf.get(line.classId)!,
          listCents: line.priceCents,
          discountCents: 0,
          paidCents: line.paidCents!,
          title: line.title,
          sectionId: line.sectionId ?? null,
        })),
      });
    }
    // The first student's refunded line: its share clawed back as the refund did (decision 039).
    const [firstPayment] = paymentRows;
    const firstLines = enrollmentRows.filter((e) => e.paymentId === firstPayment!.id);
    const refunded = firstLines.find((e) => e.status === 'refunded')!;
    await clawBackLines(tx, { enrollmentIds: [refunded.id!], now: refunded.refundedAt!, kind: 'refund' });
    await insertRefunds(tx, {
      payment: { id: firstPayment!.id!, studentId: firstPayment!.studentId!, paidAt: firstPayment!.data as Date },
      admin,
      lines: {
        approved: { id: refunded.id!, paidCents: refunded.paidCents!, refundedAt: refunded.refundedAt! },
        declined: { id: firstLines[0]!.id! },
        pending: { id: firstLines[1]!.id! },
      },
    });
    await insertProgress(
      tx,
      classroom,
      enrollmentRows.flatMap((e) =>
        e.status === 'paid'
          ? [
              {
                studentIndex: students.findIndex((p) => p.id === e.studentId),
                studentId: e.studentId!,
                classId: e.classId,
                paidAt: e.paidAt!,
              },
            ]
          : [],
      ),
      now,
    );
    await releaseDue(tx, now);
    const paidTeacher = teachers[0]!;
    const payout = await decidePayout({ db: tx, now: () => now, gatewayName: null }, paidTeacher.id, {
      minimumCents: 1,
      skipLocked: false,
    });
    if (payout) {
      await tx.update(schema.payouts).set({ status: 'paid', paidAt: now }).where(eq(schema.payouts.id, payout.id));
    }
    for (const cls of classRows) {
      const agg = ratings.get(cls.id);
      const enrolled = enrollCounts.get(cls.id) ?? 0;
      if (enrolled === 0 && !agg) continue;
      await tx
        .update(schema.classes)
        .set({ enrollmentCount: enrolled, ratingSum: agg?.sum ?? 0, reviewCount: agg?.n ?? 0 })
        .where(eq(schema.classes.id, cls.id));
    }

    const isAdmin = adminEmails.includes(admin.email);
    return {
      password: DEMO_PASSWORD,
      logins: [
        ...(isAdmin ? [{ role: 'admin' as const, email: admin.email }] : []),
        ...[teachers[0]!, students[0]!].map((p) => ({ role: p.role, email: p.email })),
      ],
    };
  });
}
