import { describe, expect, it } from 'vitest';
import { roleOf } from './roles.ts';

describe('roleOf (spec §4, DESIGN §1.5)', () => {
  it('shows admin > teacher > student, whatever else the person is', () => {
    expect(roleOf({ isAdmin: true, isTeacher: true })).toBe('admin');
    expect(roleOf({ isAdmin: true, isTeacher: false })).toBe('admin');
    expect(roleOf({ isAdmin: false, isTeacher: true })).toBe('teacher');
    expect(roleOf({ isAdmin: false, isTeacher: false })).toBe('student');
  });
});
