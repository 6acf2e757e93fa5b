import { writeFileSync } from 'node:fs';
import { test as setup, type Person } from '../fixtures/arrange.ts';
import { ROLE_ACCOUNTS_FILE, ROLE_STATE, type RoleAccount, type RoleAccounts } from '../fixtures/roles.ts';

/** The public part of an arranged person: what specs may read of a role account. */
function account({ id, name, email, phone, image }: Person): RoleAccount {
  return { id, name, email, phone, image };
}

// Tagged like the PostgreSQL subset so that `--grep @postgres` keeps its dependency.
setup('role accounts through the API, each signed in once', { tag: '@postgres' }, async ({ arrange }) => {
  const [teacher, student, admin] = await Promise.all([
    arrange.teacher('role-teacher'),
    arrange.student('role-student'),
    arrange.admin('role-admin'),
  ]);
  const acceptedClass = await arrange.acceptedClass(teacher, { price: 35 });
  const pendingClass = await arrange.pendingClass(teacher, { price: 45 });
  await arrange.paidEnrollment(student, [acceptedClass.id]);

  const accounts: RoleAccounts = {
    student: account(student),
    teacher: { ...account(teacher), acceptedClass, pendingClass },
    admin: account(admin),
  };
  for (const [role, person] of [
    ['student', student],
    ['teacher', teacher],
    ['admin', admin],
  ] as const) {
    await person.api.storageState({ path: ROLE_STATE[role] });
  }
  writeFileSync(ROLE_ACCOUNTS_FILE, JSON.stringify(accounts, null, 2));
});
