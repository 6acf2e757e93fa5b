import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@skillhive/shared/contracts/users';
import { describeDetails, describeEntry } from './audit-log.tsx';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  _id: 'e1',
  actorId: 'a1',
  actorEmail: 'admin@example.test',
  action: 'class.approve',
  targetType: 'class',
  targetId: '6c7c2f0e-0000-4000-8000-000000000001',
  targetLabel: 'Ink drawing',
  details: null,
  createdAt: '2026-01-02T12:00:00.000Z',
  ...over,
});

describe('the audit log in people’s words', () => {
  it('says what was done to whom, by title or e-mail', () => {
    expect(describeEntry(entry({}))).toBe('Approved the class “Ink drawing”');
    expect(
      describeEntry(entry({ action: 'teacher_request.approve', targetType: 'user', targetLabel: 'ada@example.test' })),
    ).toBe('Approved the teacher application of ada@example.test');
    expect(
      describeEntry(entry({ action: 'refund_request.decline', targetType: 'refund_request', targetLabel: null })),
    ).toBe('Declined a refund request');
    // An action this page does not know yet still reads, without the id.
    expect(describeEntry(entry({ action: 'coupon.disable', targetType: 'coupon', targetLabel: null }))).toBe(
      'Coupon disable: a coupon',
    );
  });

  it('leaves ids out of the details and writes cents as money', () => {
    expect(
      describeDetails({
        requestId: '6c7c2f0e-0000-4000-8000-000000000001',
        enrollmentIds: ['x'],
        amountCents: 2499,
        archived: true,
        reason: 'Class cancelled',
        teacherEmail: 'tea@example.test',
      }),
    ).toBe('amount: $24.99; archived: yes; reason: Class cancelled; teacher email: tea@example.test');
  });
});
