import { describe, expect, it } from 'vitest';
import {
  CreateClassBody,
  CreateTeacherRequestBody,
  LoginBody,
  SignUpBody,
  UpdateClassBody,
  UpdateUserBody,
} from './forms.ts';
import { AUTH_MESSAGES, CLASS_MESSAGES, TEACH_MESSAGES } from './messages.ts';
import { isCardExpired, isValidCardNumber, cvcLengthFor, normalizeCardNumber } from './cards.ts';

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
    ['abc', CLASS_MESSAGES.priceRequired],
    ['0.49', CLASS_MESSAGES.priceRange],
    ['10000.01', CLASS_MESSAGES.priceRange],
    ['1.005', CLASS_MESSAGES.priceCents],
  ])('refuses price %j with "%s"', (price, message) => {
    expect(firstMessages(CreateClassBody.safeParse({ ...valid, price })).price).toBe(message);
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
