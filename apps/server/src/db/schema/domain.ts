import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CATEGORIES,
  CLASS_STATUSES,
  ENROLLMENT_STATUSES,
  EXPERIENCE_LEVELS,
  PAYMENT_STATUSES,
  TEACHER_REQUEST_STATUSES,
} from '@skillhive/shared/constants';
import { CLASS_REVISION_STATUSES } from '@skillhive/shared/classes';
import { users } from './auth.ts';

export const experienceEnum = pgEnum('experience_level', EXPERIENCE_LEVELS);
export const categoryEnum = pgEnum('category', CATEGORIES);
export const teacherRequestStatusEnum = pgEnum('teacher_request_status', TEACHER_REQUEST_STATUSES);
export const classStatusEnum = pgEnum('class_status', CLASS_STATUSES);
export const enrollmentStatusEnum = pgEnum('enrollment_status', ENROLLMENT_STATUSES);
export const paymentStatusEnum = pgEnum('payment_status', PAYMENT_STATUSES);
export const classRevisionStatusEnum = pgEnum('class_revision_status', CLASS_REVISION_STATUSES);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Teacher applications (spec §3). Name, e-mail and image are the account's at the time of applying. */
export const teacherRequests = pgTable(
  'teacher_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    image: text('image'),
    experience: experienceEnum('experience').notNull(),
    title: text('title').notNull(),
    category: categoryEnum('category').notNull(),
    status: teacherRequestStatusEnum('status').notNull().default('pending'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One pending request per user (issue 2); a rejected applicant may apply again (DESIGN §1.6).
    uniqueIndex('teacher_requests_one_pending_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('teacher_requests_status_created_idx').on(t.status, t.createdAt),
    index('teacher_requests_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/** Uploaded images, content-addressed by the SHA-256 of their re-encoded bytes. */
export const uploads = pgTable(
  'uploads',
  {
    key: text('key').primaryKey(),
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
);

/** Classes (spec §3). Money is integer cents; the teacher's name is kept for search and display. */
export const classes = pgTable(
  'classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teacherName: text('teacher_name').notNull(),
    teacherEmail: text('teacher_email').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    priceCents: integer('price_cents').notNull(),
    imageKey: text('image_key')
      .notNull()
      .references(() => uploads.key),
    category: categoryEnum('category').notNull(),
    status: classStatusEnum('status').notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    /** Denormalised counters kept in step by the enrolment and review services. */
    enrollmentCount: integer('enrollment_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`to_tsvector('english', coalesce("title", '') || ' ' || coalesce("description", '') || ' ' || coalesce("teacher_name", ''))`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('classes_price_range', sql`${t.priceCents} between 50 and 1000000`),
    check('classes_counts_non_negative', sql`${t.enrollmentCount} >= 0 and ${t.reviewCount} >= 0`),
    // Catalogue: newest first within a status, optionally within a category (keyset on created_at, id).
    index('classes_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('classes_status_category_created_idx').on(t.status, t.category, t.createdAt.desc(), t.id.desc()),
    index('classes_status_price_idx').on(t.status, t.priceCents, t.id),
    index('classes_status_popular_idx').on(t.status, t.enrollmentCount.desc(), t.id.desc()),
    index('classes_teacher_created_idx').on(t.teacherId, t.createdAt.desc()),
    index('classes_search_idx').using('gin', t.search),
  ],
);

/**
 * Proposed edits of an accepted class (DESIGN §4): the class row stays what is on sale until an
 * admin approves. A null field is one the teacher did not change. At most one pending per class.
 */
export const classRevisions = pgTable(
  'class_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    title: text('title'),
    description: text('description'),
    priceCents: integer('price_cents'),
    imageKey: text('image_key').references(() => uploads.key),
    category: categoryEnum('category'),
    status: classRevisionStatusEnum('status').notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('class_revisions_price_range', sql`${t.priceCents} is null or ${t.priceCents} between 50 and 1000000`),
    // A further edit updates the pending revision instead of adding a second one.
    uniqueIndex('class_revisions_one_pending_idx')
      .on(t.classId)
      .where(sql`${t.status} = 'pending'`),
    index('class_revisions_class_created_idx').on(t.classId, t.createdAt.desc()),
    index('class_revisions_status_created_idx').on(t.status, t.createdAt),
  ],
);

/** Enrolment records (spec §3): a snapshot of the class when the student chose it. */
export const enrollments = pgTable(
  'enrollments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** Null once the student's account is deleted: a paid line is a financial record and stays. */
    studentId: text('student_id').references(() => users.id, { onDelete: 'set null' }),
    studentEmail: text('student_email').notNull(),
    teacherName: text('teacher_name').notNull(),
    title: text('title').notNull(),
    imageKey: text('image_key').notNull(),
    description: text('description').notNull(),
    priceCents: integer('price_cents').notNull(),
    status: enrollmentStatusEnum('status').notNull().default('pending'),
    paymentId: uuid('payment_id').references((): AnyPgColumn => payments.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * The one payment intent this pending line is reserved for (decision 010): a line is charged
     * through one intent at a time, and a new overlapping intent takes it only after the old one
     * was cancelled at the gateway.
     */
    reservedBy: text('reserved_by'),
    createdAt: createdAt(),
  },
  (t) => [
    // One enrolment per student per class (DESIGN §1.4).
    uniqueIndex('enrollments_student_class_idx').on(t.studentId, t.classId),
    index('enrollments_student_created_idx').on(t.studentId, t.createdAt.desc()),
    index('enrollments_class_idx').on(t.classId, t.status),
    check('enrollments_price_positive', sql`${t.priceCents} > 0`),
    check('enrollments_paid_has_payment', sql`(${t.status} = 'paid') = (${t.paymentId} is not null)`),
  ],
);

/** Payments (spec §3). `data` is the date of payment, spelled as the spec has it (DESIGN §1.8). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the student's account is deleted: payments outlive accounts (DESIGN §4). */
    studentId: text('student_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    gateway: text('gateway').notNull(),
    transactionId: text('transaction_id').notNull().unique(),
    cartIds: uuid('cart_ids').array().notNull(),
    menuItemIds: uuid('menu_item_ids').array().notNull(),
    status: paymentStatusEnum('status').notNull().default('pending'),
    data: timestamp('data', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_student_created_idx').on(t.studentId, t.createdAt.desc()),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/**
 * Every payment intent we created at the gateway (decision 010), whatever the gateway: the lines
 * it was made for and what became of it. `open` until it is fulfilled, cancelled or refunded; the
 * reconciler re-reads open and refund_pending ones from the gateway (`next_check_at`), claiming a
 * batch with a short lease so several instances never work on the same intent at once.
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    gateway: text('gateway').notNull(),
    /** Our user id; no foreign key: money records outlive accounts (DESIGN §4). */
    studentId: text('student_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    cartIds: uuid('cart_ids').array().notNull(),
    status: text('status').notNull().default('open'),
    paymentId: uuid('payment_id'),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'payment_intents_status',
      sql`${t.status} in ('open', 'succeeded', 'canceled', 'refund_pending', 'refunded')`,
    ),
    index('payment_intents_student_idx').on(t.studentId, t.status),
    index('payment_intents_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.status} in ('open', 'refund_pending')`),
  ],
);

/** Gateway events already handled (webhook de-duplication). */
export const gatewayEvents = pgTable('gateway_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Payment intents of the built-in test gateway: it keeps state like Stripe's test mode does. */
export const testGatewayIntents = pgTable('test_gateway_intents', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull().unique(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  customerRef: text('customer_ref').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  status: text('status').notNull(),
  lastError: text('last_error'),
  /** Set once when the charge is refunded (Stripe keeps the intent succeeded and refunds its charge). */
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Reviews (spec §3): one per student per class; a second post edits it. */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    details: text('details').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reviews_student_class_idx').on(t.studentId, t.classId),
    index('reviews_created_idx').on(t.createdAt.desc()),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_details_length', sql`char_length(${t.details}) <= 1000`),
  ],
);

/** Admin actions: who did what to whom, and when (issue 3 §7). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    targetLabel: text('target_label'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt.desc())],
);
