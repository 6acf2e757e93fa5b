import type { Coupon } from '@skillhive/shared/contracts/coupons';
import { COUPON_MESSAGES, normaliseCouponCode, type CouponKind } from '@skillhive/shared/rules/coupons';
import type { CreateCouponBody } from '@skillhive/shared/rules/coupon-form';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { isUuid } from '../enrollments/enrollments.service.ts';
import { applyCoupon, couponAdjustment, type CouponCartLine } from './coupon-rules.ts';
import * as repo from './coupons.repository.ts';
import type { PriceAdjustment } from '../checkout/pricing.public.ts';

/**
 * Coupons: an admin's are site-wide, a teacher's are for that teacher's classes.
 * Whether one applies to a cart is `coupon-rules.ts`; a use is counted by `redeemCoupon`.
 */

/** Whose coupons a call is about: the site's (an admin) or one teacher's. */
export type CouponScope = { teacherId: string | null };

function toCoupon(row: repo.CouponRow): Coupon {
  return {
    _id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxUses: row.maxUses,
    uses: row.uses,
    teacherId: row.teacherId,
    disabled: row.disabledAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createCoupon(
  deps: { db: Db; now: () => Date },
  viewer: Viewer,
  scope: CouponScope,
  body: CreateCouponBody,
): Promise<Coupon> {
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= deps.now().getTime()) {
    throw new AppError(ErrorCode.VALIDATION, COUPON_MESSAGES.expiresAt, {
      fields: { expiresAt: COUPON_MESSAGES.expiresAt },
    });
  }
  const id = await repo.insertCoupon(deps.db, {
    code: normaliseCouponCode(body.code),
    kind: body.kind,
    value: body.value,
    expiresAt,
    maxUses: body.maxUses ?? null,
    teacherId: scope.teacherId,
    createdBy: viewer.id,
  });
  if (!id) throw conflict(COUPON_MESSAGES.codeTaken);
  const row = await repo.findShownCoupon(deps.db, id);
  if (!row) throw notFound('Coupon');
  return toCoupon(row);
}

export async function listCoupons(
  db: Db,
  scope: CouponScope,
  query: { page: number; limit: number },
): Promise<{ items: Coupon[]; total: number }> {
  const { rows, total } = await repo.listCoupons(db, {
    teacherId: scope.teacherId,
    ...limitOffsetOf(query),
  });
  return { items: rows.map(toCoupon), total };
}

/**
 * A teacher disables their own coupons, an admin any coupon; anyone else's is a 404, so codes of
 * other teachers are not revealed. Disabling twice is a no-op.
 */
export async function disableCoupon(deps: { db: Db; now: () => Date }, viewer: Viewer, id: string): Promise<Coupon> {
  const row = isUuid(id) ? await repo.findCouponById(deps.db, id) : null;
  const mayDisable = row && (viewer.isAdmin || (row.teacherId !== null && row.teacherId === viewer.id));
  if (!mayDisable) throw notFound('Coupon');
  const after = await repo.disableCoupon(deps.db, id, deps.now());
  if (!after) throw notFound('Coupon');
  return toCoupon(after);
}

// ---- Coupons at checkout (decision 019) --------------------------------------------------------

/** A coupon the cart may use, with the adjustment it makes to it. */
export interface CartCoupon {
  id: string;
  code: string;
  kind: CouponKind;
  value: number;
  adjustment: PriceAdjustment;
  /** Whose coupon: a teacher's (their id) comes out of their share, a site-wide one (null) out of the fee (decision 039). */
  teacherId: string | null;
}

/**
 * A refusal of a coupon the student already knows exists (one bound to their intent, or a usable
 * code that would bring the cart below the smallest charge), in the student's words and on the
 * `couponCode` field: a vanished (disabled) one is a 404, every other refusal a 409 (a business
 * refusal, DESIGN §3). A code typed at checkout that cannot be used is `unusableCoupon` instead.
 */
export function couponRefusal(message: string): AppError {
  const code = message === COUPON_MESSAGES.unknown ? ErrorCode.NOT_FOUND : ErrorCode.CONFLICT;
  return new AppError(code, message, { fields: { couponCode: message } });
}

function toCartCoupon(row: repo.CouponRow, adjustment: PriceAdjustment): CartCoupon {
  return { id: row.id, code: row.code, kind: row.kind, value: row.value, adjustment, teacherId: row.teacherId };
}

/**
 * What checkout answers for every code the student cannot use, whatever the reason (unknown,
 * disabled, expired, used up, used by them already, not for these classes): the same status, code
 * and message, so a guesser cannot tell a code that exists from one that does not. The routes
 * count these answers against the caller's limit on wrong codes (RATE_LIMIT_COUPON_FAILURES).
 */
export function unusableCoupon(): AppError {
  return new AppError(ErrorCode.NOT_FOUND, COUPON_MESSAGES.unusable, {
    fields: { couponCode: COUPON_MESSAGES.unusable },
  });
}

/** Whether an error is checkout's answer to a code the student cannot use (`unusableCoupon`). */
export function isUnusableCoupon(error: unknown): boolean {
  return (
    error instanceof AppError &&
    error.code === ErrorCode.NOT_FOUND &&
    error.fields?.couponCode === COUPON_MESSAGES.unusable
  );
}

/**
 * The coupon a student types at checkout, checked against their cart now; any reason it cannot
 * be used is the one `unusableCoupon` answer.
 */
export async function couponForCart(
  db: Db,
  input: { code: string; studentId: string; cart: readonly CouponCartLine[]; now: Date },
): Promise<CartCoupon> {
  const found = await repo.findCouponForStudent(db, { code: normaliseCouponCode(input.code) }, input.studentId);
  const answer = applyCoupon(found?.row ?? null, {
    now: input.now,
    redeemedByStudent: found?.redeemedByStudent ?? false,
    cart: input.cart,
  });
  if (!answer.ok) throw unusableCoupon();
  return toCartCoupon(found!.row, answer.adjustment);
}

/**
 * The coupon bound to an intent (by id), checked again just before the card is charged. It was
 * applied to this student's cart already, so the refusal may say why (expired, used up meanwhile).
 */
export async function couponOfIntentStillUsable(
  db: Db,
  input: { couponId: string; studentId: string; cart: readonly CouponCartLine[]; now: Date },
): Promise<CartCoupon> {
  const found = isUuid(input.couponId)
    ? await repo.findCouponForStudent(db, { id: input.couponId }, input.studentId)
    : null;
  const answer = applyCoupon(found?.row ?? null, {
    now: input.now,
    redeemedByStudent: found?.redeemedByStudent ?? false,
    cart: input.cart,
  });
  if (!answer.ok) throw couponRefusal(answer.message);
  return toCartCoupon(found!.row, answer.adjustment);
}

/**
 * The coupon a charge was priced with, as the fulfilment needs it: its terms give the same
 * adjustment whatever its state now (whether the use still counts is `redeemCoupon`'s to say).
 * Null when the coupon does not exist or no line qualifies: the charge cannot be fulfilled.
 */
export async function couponOfCharge(
  db: Db,
  couponId: string,
  cart: readonly CouponCartLine[],
): Promise<CartCoupon | null> {
  const row = isUuid(couponId) ? await repo.findCouponById(db, couponId) : null;
  const adjustment = row ? couponAdjustment(row, cart) : null;
  return row && adjustment ? toCartCoupon(row, adjustment) : null;
}

/**
 * Counts a use with the payment it discounted, inside the checkout's transaction (decision 019):
 * 'redeemed' exactly once per student and coupon, never past the coupon's limit.
 */
export const redeemCoupon = repo.redeemCoupon;

/** Whose coupon a payment used (a teacher's id, or null for a site-wide one); null when there is no such coupon. */
export async function couponOwnerOf(db: Db, couponId: string): Promise<{ teacherId: string | null } | null> {
  const row = await repo.findCouponById(db, couponId);
  return row ? { teacherId: row.teacherId } : null;
}
