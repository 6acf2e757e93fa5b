import { describe, expect, it } from 'vitest';
import { SignUpBody, SendVerificationBody } from './auth-forms.ts';
import { ChangeEmailBody, UpdateUserBody } from './account-forms.ts';
import { CreateClassBody } from './class-form.ts';
import { LinkMaterialFormBody, SaveSessionBody } from './content-forms.ts';
import { CreateCouponBody } from './coupon-form.ts';
import { COUPON_CODE_MIN, COUPON_MESSAGES } from './coupons.ts';
import { isLocalCallback } from './local-callback.ts';
import { TEXT_MESSAGES } from './messages.ts';
import { RejectReasonBody } from './reject-reason.ts';
import { CreateRefundRequestBody } from './refunds.ts';
import { ReviewFormBody } from './review-form.ts';
import { CreateTeacherRequestBody } from './teach-form.ts';

/** The first message per field, as the server's error body and the web form show them. */
function firstMessages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

const ORIGIN = 'https://skillhive.example';

describe('local callback paths (one rule for every callback and redirect)', () => {
  it.each([
    '/',
    '/email-verified',
    '/dashboard/profile',
    '/email-verified?from=profile&x=1',
    '/classes/abc-123#reviews',
    '/a%20b',
    `${ORIGIN}/dashboard`,
  ])('accepts %j', (value) => {
    expect(isLocalCallback(value, ORIGIN)).toBe(true);
  });

  it.each([
    '',
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2e//evil.example',
    '/.%2e//evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/a\\b',
    '/a?b=\\c',
    'https://evil.example/x',
    `${ORIGIN}.evil.example/x`,
    `${ORIGIN}@evil.example/x`,
    'HTTPS://SKILLHIVE.EXAMPLE/x',
    `${ORIGIN}`,
    `${ORIGIN}//evil.example`,
    'evil.example',
    'javascript:alert(1)',
    '/a//b',
    '/a/',
    '/a/./b',
    '/a/../b',
    '/a/%2e%2e/b',
    '/a%2fb',
    '/a%5cb',
    '/a%0d%0aSet-Cookie:x',
    '/a%zz',
    '/a\tb',
    '/a\nb',
    '/a b',
    `/${'a'.repeat(2048)}`,
  ])('refuses %j', (value) => {
    expect(isLocalCallback(value, ORIGIN)).toBe(false);
  });

  it('is what the mail bodies accept, as paths only', () => {
    const ok = SendVerificationBody.safeParse({ email: 'a@b.test', callbackURL: '/email-verified' });
    expect(ok.success).toBe(true);
    for (const callbackURL of ['/.//evil.example', '/%2e//evil.example', `${ORIGIN}/x`]) {
      expect(firstMessages(ChangeEmailBody.safeParse({ newEmail: 'a@b.test', callbackURL }))).toEqual({
        callbackURL: TEXT_MESSAGES.callback,
      });
    }
  });
});

describe('single-line fields refuse control characters; multi-line ones keep line breaks only', () => {
  const CONTROLS = ['\r\n', '\n', '\r', '\t', '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029'];
  const signUp = {
    name: 'Ada Lovelace',
    image: 'https://example.test/ada.png',
    phone: '+44 20 7946 0958 1',
    email: 'ada@example.test',
    password: 'Engine#1',
  };
  const session = {
    title: 'Kick-off',
    startsAt: '2026-03-23T18:00',
    timeZone: 'Europe/Berlin',
    durationMinutes: 90,
    meetingUrl: '',
    location: 'Room 1',
  };
  const cls = {
    title: 'Watercolour',
    price: 10,
    description: 'Line one',
    image: '/api/uploads/images/a.webp',
    category: 'data-science',
  };

  const singleLine: [string, (bad: string) => unknown, { safeParse(v: unknown): { success: boolean } }, string][] = [
    ['a name at sign-up', (bad) => ({ ...signUp, name: `Ada${bad}Lovelace` }), SignUpBody, 'name'],
    ['a photo address', (bad) => ({ ...signUp, image: `https://example.test/a${bad}.png` }), SignUpBody, 'image'],
    ['a name in the profile', (bad) => ({ name: `Ada${bad}L` }), UpdateUserBody, 'name'],
    ['a class title', (bad) => ({ ...cls, title: `Water${bad}colour` }), CreateClassBody, 'title'],
    ['a class image', (bad) => ({ ...cls, image: `/api/uploads/images/a${bad}.webp` }), CreateClassBody, 'image'],
    ['a session title', (bad) => ({ ...session, title: `Kick${bad}off` }), SaveSessionBody, 'title'],
    ['a session location', (bad) => ({ ...session, location: `Room${bad}1` }), SaveSessionBody, 'location'],
    [
      'a meeting link',
      (bad) => ({ ...session, meetingUrl: `https://meet.example.test/a${bad}b` }),
      SaveSessionBody,
      'meetingUrl',
    ],
    [
      'a material title',
      (bad) => ({ title: `Slides${bad}1`, url: 'https://docs.example.test/x' }),
      LinkMaterialFormBody,
      'title',
    ],
    [
      'an application title',
      (bad) => ({ experience: 'beginner', title: `Mentor${bad}1`, category: 'data-science' }),
      CreateTeacherRequestBody,
      'title',
    ],
    ['a coupon code', (bad) => ({ code: `SPRING${bad}2026`, kind: 'percent', value: 10 }), CreateCouponBody, 'code'],
  ];

  for (const [what, bodyWith, schema, field] of singleLine) {
    it(`${what} is one line of text`, () => {
      expect(schema.safeParse(bodyWith('-')).success).toBe(true);
      for (const bad of CONTROLS) {
        // A URL field may say so in its own words; the rest say it is one line.
        const messages = firstMessages(schema.safeParse(bodyWith(bad)) as never);
        expect(Object.keys(messages), `${what} ${JSON.stringify(bad)}`).toEqual([field]);
        if (!/image|meetingUrl/.test(field)) expect(messages[field]).toBe(TEXT_MESSAGES.singleLine);
      }
    });
  }

  it('multi-line fields keep line breaks and tabs, and refuse other control characters', () => {
    const multi: [string, (text: string) => unknown, { safeParse(v: unknown): { success: boolean } }, string][] = [
      ['a class description', (text) => ({ ...cls, description: text }), CreateClassBody, 'description'],
      ['review details', (text) => ({ rating: 5, details: text }), ReviewFormBody, 'details'],
      ['a rejection reason', (text) => ({ reason: text }), RejectReasonBody, 'reason'],
      ['a refund reason', (text) => ({ enrollmentId: 'x', reason: text }), CreateRefundRequestBody, 'reason'],
    ];
    for (const [what, bodyWith, schema, field] of multi) {
      expect(schema.safeParse(bodyWith('First line\r\nSecond\tline\nThird')).success, what).toBe(true);
      for (const bad of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028']) {
        expect(
          firstMessages(schema.safeParse(bodyWith(`a${bad}b`)) as never),
          `${what} ${JSON.stringify(bad)}`,
        ).toEqual({
          [field]: TEXT_MESSAGES.controlCharacters,
        });
      }
    }
  });
});

describe('coupon codes', () => {
  it(`are at least ${COUPON_CODE_MIN} characters, so they cannot be guessed in a few tries`, () => {
    const body = (code: string) => ({ code, kind: 'percent', value: 10 });
    expect(CreateCouponBody.safeParse(body('A'.repeat(COUPON_CODE_MIN))).success).toBe(true);
    expect(firstMessages(CreateCouponBody.safeParse(body('A'.repeat(COUPON_CODE_MIN - 1))))).toEqual({
      code: COUPON_MESSAGES.code,
    });
    expect(COUPON_MESSAGES.code).toContain(String(COUPON_CODE_MIN));
  });
});
