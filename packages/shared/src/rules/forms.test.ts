import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreateClassBody, UpdateClassBody } from './class-form.ts';
import { CreateReviewBody, ReviewFormBody } from './review-form.ts';
import { CreateTeacherRequestBody } from './teach-form.ts';
import { LoginBody } from './login-form.ts';
import { SignUpBody } from './auth-forms.ts';
import { RejectReasonBody } from './reject-reason.ts';
import { UpdateUserBody } from './account-forms.ts';
import { AUTH_MESSAGES, CLASS_MESSAGES, REASON_MESSAGES, REVIEW_MESSAGES, TEACH_MESSAGES } from './messages.ts';
import { REASON_MAX, REVIEW_DETAILS_MAX } from './constants.ts';
import { CardFormBody } from './card-form.ts';
import { PAYMENT_MESSAGES, isCardExpired, isValidCardNumber, cvcLengthFor, normalizeCardNumber } from './cards.ts';

/** The first message per field, as the server's error body and the web form show them. */
function firstMessages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

const validSignUp = {
  name: 'Ada Lovelace',
  image: 'https://example.test/ada.png',
  phone: '+44 20 7946 0958 1',
  email: '  Ada@Example.TEST ',
  password: 'Engine#1',
};

describe('sign-up (spec §5)', () => {
  it('accepts a valid form, trimming and lower-casing the e-mail', () => {
    const result = SignUpBody.safeParse(validSignUp);
    expect(result.success).toBe(true);
    expect(result.data?.email).toBe('ada@example.test');
  });

  it('names every missing field with its own message, one per field', () => {
    expect(firstMessages(SignUpBody.safeParse({}))).toEqual({
      name: AUTH_MESSAGES.nameRequired,
      image: AUTH_MESSAGES.photoRequired,
      phone: AUTH_MESSAGES.phoneRequired,
      email: AUTH_MESSAGES.emailRequired,
      password: AUTH_MESSAGES.passwordRequired,
    });
    const blanks = SignUpBody.safeParse({ name: ' ', image: '', phone: '', email: '', password: '' });
    expect(firstMessages(blanks)).toEqual(firstMessages(SignUpBody.safeParse({})));
  });

  it.each([
    ['phone', '0123', AUTH_MESSAGES.phoneMin],
    ['phone', '+1 234 567 890 123 456 789 01', AUTH_MESSAGES.phoneMax],
    ['phone', '555-CALL-NOW', AUTH_MESSAGES.phonePattern],
    ['email', 'not-an-address', AUTH_MESSAGES.emailInvalid],
    ['image', 'javascript:alert(1)', AUTH_MESSAGES.photoInvalid],
    ['image', '//evil.test/a.png', AUTH_MESSAGES.photoInvalid],
    ['password', 'Ab1!x', AUTH_MESSAGES.passwordMin],
    ['password', 'Abcdefghij1!abcdefghij', AUTH_MESSAGES.passwordMax],
    ['password', 'cobol#59', AUTH_MESSAGES.passwordPattern],
  ])('refuses %s %j with "%s"', (field, value, message) => {
    expect(firstMessages(SignUpBody.safeParse({ ...validSignUp, [field]: value }))).toEqual({ [field]: message });
  });

  it('accepts a photo on our own origin', () => {
    expect(SignUpBody.safeParse({ ...validSignUp, image: '/api/uploads/images/abc.webp' }).success).toBe(true);
  });
});

describe('login and profile', () => {
  it('asks only for both fields before the server answers', () => {
    expect(firstMessages(LoginBody.safeParse({ email: '', password: '' }))).toEqual({
      email: AUTH_MESSAGES.emailRequired,
      password: AUTH_MESSAGES.passwordRequired,
    });
    expect(LoginBody.parse({ email: ' A@B.C ', password: 'x' })).toEqual({ email: 'a@b.c', password: 'x' });
  });

  it('lets a profile change any subset under the sign-up rules', () => {
    expect(UpdateUserBody.safeParse({}).success).toBe(true);
    expect(firstMessages(UpdateUserBody.safeParse({ phone: '12' }))).toEqual({ phone: AUTH_MESSAGES.phoneMin });
  });
});

describe('class form', () => {
  const valid = { title: 'Intro', price: '19.99', description: 'Learn', image: '/img.webp', category: 'data-science' };

  it('coerces the price and keeps cents exact', () => {
    expect(CreateClassBody.parse(valid).price).toBe(19.99);
  });

  it.each([
    // The form sends an empty field as undefined.
    [undefined, CLASS_MESSAGES.priceRequired],
    ['  ', CLASS_MESSAGES.priceRequired],
    ['abc', CLASS_MESSAGES.priceNumber],
    ['NaN', CLASS_MESSAGES.priceNumber],
    ['0.49', CLASS_MESSAGES.priceRange],
    ['10000.01', CLASS_MESSAGES.priceRange],
    ['1.005', CLASS_MESSAGES.priceCents],
  ])('refuses price %j with "%s"', (price, message) => {
    expect(firstMessages(CreateClassBody.safeParse({ ...valid, price })).price).toBe(message);
  });

  it('says how long a title and an image address may be', () => {
    expect(firstMessages(CreateClassBody.safeParse({ ...valid, title: 'a'.repeat(121) })).title).toBe(
      CLASS_MESSAGES.titleTooLong,
    );
    expect(firstMessages(CreateClassBody.safeParse({ ...valid, image: `/${'a'.repeat(2048)}` })).image).toBe(
      CLASS_MESSAGES.imageTooLong,
    );
  });

  it('refuses an unknown category and allows partial updates', () => {
    expect(firstMessages(CreateClassBody.safeParse({ ...valid, category: 'cooking' }))).toEqual({
      category: CLASS_MESSAGES.categoryRequired,
    });
    expect(UpdateClassBody.parse({ title: ' New ' })).toEqual({ title: 'New' });
  });
});

describe('teacher application', () => {
  it('requires experience, title and category from the spec enums', () => {
    expect(firstMessages(CreateTeacherRequestBody.safeParse({ experience: 'guru', title: '' }))).toEqual({
      experience: TEACH_MESSAGES.experienceRequired,
      title: TEACH_MESSAGES.titleRequired,
      category: TEACH_MESSAGES.categoryRequired,
    });
  });
});

describe('card checks', () => {
  it('checks Luhn, CVC length and expiry', () => {
    expect(isValidCardNumber('4242 4242 4242 4242')).toBe(true);
    expect(isValidCardNumber('4242 4242 4242 4241')).toBe(false);
    expect(normalizeCardNumber('4242-4242 4242 4242')).toBe('4242424242424242');
    expect(cvcLengthFor('378282246310005')).toBe(4);
    expect(cvcLengthFor('4242424242424242')).toBe(3);
    const now = new Date('2026-11-23T12:00:00Z');
    expect(isCardExpired(10, 2026, now)).toBe(true);
    expect(isCardExpired(11, 2026, now)).toBe(false);
    expect(isCardExpired(1, 27, now)).toBe(false);
  });
});

describe('review form and POST /api/reviews', () => {
  it('takes a rating of 1 to 5 (a radio value arrives as text) and trims the details, which are optional', () => {
    expect(ReviewFormBody.parse({ rating: '4', details: '  Clear and kind.  ' })).toEqual({
      rating: 4,
      details: 'Clear and kind.',
    });
    expect(ReviewFormBody.parse({ rating: 5 })).toEqual({ rating: 5, details: '' });
    expect(CreateReviewBody.parse({ classId: 'c1', rating: 1 })).toEqual({ classId: 'c1', rating: 1, details: '' });
  });

  it.each([
    [undefined, REVIEW_MESSAGES.ratingRequired],
    [null, REVIEW_MESSAGES.ratingRequired],
    ['', REVIEW_MESSAGES.ratingRange],
    [0, REVIEW_MESSAGES.ratingRange],
    [6, REVIEW_MESSAGES.ratingRange],
    [4.5, REVIEW_MESSAGES.ratingWhole],
  ])('refuses rating %j with "%s"', (rating, message) => {
    expect(firstMessages(ReviewFormBody.safeParse({ rating }))).toEqual({ rating: message });
  });

  it('refuses details over the limit and a review without its class', () => {
    expect(firstMessages(ReviewFormBody.safeParse({ rating: 3, details: 'x'.repeat(REVIEW_DETAILS_MAX + 1) }))).toEqual(
      {
        details: REVIEW_MESSAGES.detailsTooLong,
      },
    );
    expect(REVIEW_MESSAGES.detailsTooLong).toBe('Review must be at most 1000 characters');
    expect(CreateReviewBody.safeParse({ rating: 3 }).success).toBe(false);
  });
});

describe('reject reason', () => {
  it('is optional and trimmed', () => {
    expect(RejectReasonBody.parse({})).toEqual({});
    expect(RejectReasonBody.parse({ reason: '  Blurry image  ' })).toEqual({ reason: 'Blurry image' });
  });

  it('is at most 500 characters, counted after trimming', () => {
    expect(RejectReasonBody.safeParse({ reason: ` ${'x'.repeat(REASON_MAX)} ` }).success).toBe(true);
    expect(firstMessages(RejectReasonBody.safeParse({ reason: 'x'.repeat(REASON_MAX + 1) }))).toEqual({
      reason: REASON_MESSAGES.tooLong,
    });
    expect(REASON_MESSAGES.tooLong).toBe('The reason must be at most 500 characters');
  });
});

describe('card form', () => {
  afterEach(() => vi.useRealTimers());
  const card = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };

  it('turns a valid card into what the gateway takes: digits, month, four-digit year, CVC', () => {
    expect(CardFormBody.parse(card)).toEqual({
      cardNumber: '4242424242424242',
      expMonth: 12,
      expYear: 2030,
      cvc: '123',
    });
    expect(CardFormBody.parse({ cardNumber: '3782 822463 10005', expiry: '01 / 31', cvc: '1234' })).toMatchObject({
      cardNumber: '378282246310005',
      expMonth: 1,
      expYear: 2031,
    });
  });

  it("names each wrong field with the gateway's message", () => {
    expect(
      firstMessages(CardFormBody.safeParse({ cardNumber: '4242 4242 4242 4241', expiry: '13/30', cvc: '12' })),
    ).toEqual({
      cardNumber: PAYMENT_MESSAGES.cardNumber,
      expiry: PAYMENT_MESSAGES.expiry,
      cvc: PAYMENT_MESSAGES.cvc,
    });
    expect(firstMessages(CardFormBody.safeParse({ ...card, expiry: '1230' }))).toEqual({
      expiry: PAYMENT_MESSAGES.expiry,
    });
  });

  it('asks an American Express card for four CVC digits and any other card for three', () => {
    expect(firstMessages(CardFormBody.safeParse({ ...card, cvc: '1234' }))).toEqual({ cvc: PAYMENT_MESSAGES.cvc });
    expect(firstMessages(CardFormBody.safeParse({ ...card, cardNumber: '378282246310005' }))).toEqual({
      cvc: PAYMENT_MESSAGES.cvc,
    });
  });

  it('refuses a card past its expiry month, as of the moment it is checked', () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T12:00:00Z'), toFake: ['Date'] });
    expect(firstMessages(CardFormBody.safeParse({ ...card, expiry: '10/26' }))).toEqual({
      expiry: PAYMENT_MESSAGES.expired,
    });
    expect(CardFormBody.safeParse({ ...card, expiry: '11/26' }).success).toBe(true);
  });
});
