import { describe, expect, it } from 'vitest';
import { roleOf } from '@skillhive/shared/users';
import { displayRole } from './display-role.ts';

describe('displayRole', () => {
  it('answers exactly as the shared roleOf for every flag combination', () => {
    for (const isAdmin of [true, false]) {
      for (const isTeacher of [true, false]) {
        expect(displayRole({ isAdmin, isTeacher })).toBe(roleOf({ isAdmin, isTeacher }));
      }
    }
    expect(displayRole({ isAdmin: true, isTeacher: true })).toBe('admin');
  });
});
