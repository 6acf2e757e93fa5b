import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import type { Page } from '@playwright/test';
import { ROLE_STATE, roleAccounts } from '../fixtures/roles.ts';
import {
  dashboardMenu,
  expectLoaded,
  expectNoAxeViolationsInBothThemes,
  expectReady,
  seekInPagedList,
} from '../fixtures/dashboard.ts';

/**
 * The admin's screens (spec §2, §4, §6). The tables are global and other tests add rows to them
 * at the same time, so each test searches or filters down to the people and classes it arranged.
 * Looking uses the role admin's signed-in state; deciding uses an admin arranged for the test.
 */

function row(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

/** Submits the table's search form; the query lands in ?q=. */
async function searchFor(page: Page, label: string, text: string) {
  await page.getByLabel(label).fill(text);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await expectLoaded(page);
}

/** From the dashboard home, the side menu's `name` link to a page that has loaded. */
async function openFromMenu(page: Page, name: string) {
  await page.goto('/dashboard/adminHome');
  await expectReady(page);
  await dashboardMenu(page).getByRole('link', { name }).click();
  await expectLoaded(page);
}

test.describe('looking (the role admin)', () => {
  test.use({ storageState: ROLE_STATE.admin });

  test('admin home: the greeting, platform figures with charts and the menu', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/adminHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Hi, Welcome /);
    await expectLoaded(page);
    await expect(page.getByRole('figure', { name: 'Users by role' })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Classes by status' })).toBeVisible();
    // Revenue and the platform's fee of it, from the ledger (decision 039).
    const revenue = page.getByRole('region', { name: 'Revenue' });
    await expect(revenue.getByText('Platform fee', { exact: true })).toBeVisible();
    await expect(revenue.getByText(/^Teachers' shares \$/)).toBeVisible();
    await expect(dashboardMenu(page).getByRole('link')).toHaveText([
      'Admin Home',
      'Teacher Requests',
      'Users',
      'All Classes',
      // Refund requests and refunds by payment.
      'Refunds',
      // Teachers' payouts, fee revenue and disputes.
      'Payouts',
      'Coupons',
      // Reports of classes, reviews and people, and suspensions.
      'Reports',
      'Audit Log',
      // No SMTP server in the e2e run: mail waits in the outbox, which admins read here.
      'Mailbox',
      // Every account may enroll: the learning section follows.
      'Student Home',
      'My Enrolled Classes',
      'Payment History',
      'Messages',
      'Notifications',
      'Profile',
      'Home',
      'Classes Menu',
      'Contact',
    ]);
  });

  test('users: the columns, the pages and the search; an admin has no Make Admin and cannot delete themself', async ({
    page,
  }) => {
    const me = roleAccounts().admin;
    await openFromMenu(page, 'Users');
    await expect(page).toHaveURL('/dashboard/users');
    await expect(page.getByRole('columnheader')).toHaveText(['#', 'Name', 'Email', 'Role', 'Action']);
    await expect(page.getByRole('navigation', { name: 'Users pages' })).toBeVisible();

    await searchFor(page, 'Search by name or e-mail', me.email);
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(row(page, me.email).getByRole('cell', { name: 'Admin', exact: true })).toBeVisible();
    await expect(row(page, me.email).getByRole('button', { name: /^Make Admin/ })).toHaveCount(0);
    await expect(row(page, me.email).getByRole('button', { name: `Delete ${me.name}` })).toBeDisabled();
  });

  test('progress details of an accepted class: teacher, price, description, image and enrollments', async ({
    page,
    arrange,
  }) => {
    const teacher = await arrange.teacher('progress');
    const item = await arrange.acceptedClass(teacher, { title: `Progress ${uniqueStamp()}`, price: 25 });

    // Only an accepted class's Progress button opens its details (spec §2 notes).
    await page.goto(`/dashboard/allClasses?status=accepted&q=${encodeURIComponent(item.title)}`);
    await expectReady(page);
    await row(page, item.title)
      .getByRole('button', { name: `Progress of ${item.title}` })
      .click();

    await expect(page).toHaveURL(`/dashboard/seeProgressDetails/${item.id}`);
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: item.title })).toBeVisible();
    await expect(page.getByRole('img', { name: `Image of ${item.title}` })).toBeVisible();
    await expect(page.locator('dl').first()).toContainText(teacher.name);
    await expect(page.locator('dl').first()).toContainText(teacher.email);
    await expect(page.locator('dl').first()).toContainText('$25.00');
    await expect(page.getByText(item.description)).toBeVisible();
    await expect(page.getByText('Paid students')).toBeVisible();
    await expect(page.getByText('No paid enrollments in the last 12 weeks.')).toBeVisible();
  });

  test('profile: the admin role and the e-mail', async ({ page }) => {
    const me = roleAccounts().admin;
    await openFromMenu(page, 'Profile');
    // The page before (the home's figures) has definition lists too: wait for the profile.
    await expect(page).toHaveURL('/dashboard/profile');
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expect(page.locator('dl')).toContainText('Admin');
    await expect(page.locator('dl')).toContainText(me.email);
  });
});

test.describe('deciding (an arranged admin)', () => {
  test('users: Make Admin asks first, naming the person; then they are an admin', async ({ page, arrange }) => {
    const [admin, promoteMe] = await Promise.all([
      arrange.admin('users-admin'),
      arrange.user('promote', { verified: false }),
    ]);
    await arrange.signIn(page, admin);
    await openFromMenu(page, 'Users');

    await searchFor(page, 'Search by name or e-mail', promoteMe.email);
    await expect(page.getByRole('row')).toHaveCount(2);
    await row(page, promoteMe.email)
      .getByRole('button', { name: `Make Admin: ${promoteMe.name}` })
      .click();
    const promoteDialog = page.getByRole('dialog', { name: `Make ${promoteMe.name} admin?` });
    await promoteDialog.getByRole('button', { name: 'Yes, make admin' }).click();
    await expect(page.getByText(`${promoteMe.name} is an admin now.`)).toBeVisible();
    await expect(row(page, promoteMe.email).getByRole('cell', { name: 'Admin', exact: true })).toBeVisible();
    await expect(row(page, promoteMe.email).getByRole('button', { name: /^Make / })).toHaveCount(0);
  });

  test('users: Delete asks first; then the user is gone', async ({ page, arrange }) => {
    const [admin, deleteMe] = await Promise.all([
      arrange.admin('users-admin'),
      arrange.user('delete', { verified: false }),
    ]);
    await arrange.signIn(page, admin);
    await openFromMenu(page, 'Users');

    await searchFor(page, 'Search by name or e-mail', deleteMe.email);
    await row(page, deleteMe.email)
      .getByRole('button', { name: `Delete ${deleteMe.name}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `Delete ${deleteMe.name}?` });
    await expect(confirm).toContainText("You won't be able to revert this!");
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText(`${deleteMe.name} has been deleted.`)).toBeVisible();
    await expect(page.getByText('No users match your search.')).toBeVisible();
  });

  test('teacher requests: approve one and reject another, the buttons enabled only while pending', async ({
    page,
    arrange,
  }) => {
    const stamp = uniqueStamp();
    const [admin, approveMe, rejectMe] = await Promise.all([
      arrange.admin('requests-admin'),
      arrange.user('approve'),
      arrange.user('reject'),
    ]);
    await Promise.all([
      arrange.applyToTeach(approveMe, { title: `Data storytelling ${stamp}`, experience: 'mid-level' }),
      arrange.applyToTeach(rejectMe, { title: `Spreadsheet magic ${stamp}`, experience: 'mid-level' }),
    ]);
    await arrange.signIn(page, admin);
    await openFromMenu(page, 'Teacher Requests');
    await expect(page).toHaveURL('/dashboard/teacherRequest');
    await expect(page.getByRole('columnheader')).toHaveText([
      'Name',
      'Image',
      'Experience',
      'Title',
      'Category',
      'Status',
      'Actions',
    ]);
    // The moderation tables open on what waits for a decision.
    await expect(page.getByLabel('Show')).toHaveValue('pending');
    await searchFor(page, 'Search by name, e-mail or title', stamp);
    await expect(page.getByRole('row')).toHaveCount(3);

    const approveRow = row(page, approveMe.email);
    await expect(approveRow).toContainText('Mid-level');
    await expect(approveRow).toContainText('Data science');
    await expect(approveRow.getByRole('img', { name: `Photo of ${approveMe.name}` })).toBeVisible();
    // A role decision asks first: cancelling leaves the request pending.
    await approveRow.getByRole('button', { name: `Approve ${approveMe.name}` }).click();
    const confirmation = page.getByRole('dialog', { name: `Make ${approveMe.name} a teacher?` });
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmation).toBeHidden();
    await expect(approveRow).toContainText('Pending');
    await approveRow.getByRole('button', { name: `Approve ${approveMe.name}` }).click();
    await confirmation.getByRole('button', { name: 'Yes, approve' }).click();
    await expect(page.getByText(`${approveMe.name} is a teacher now.`)).toBeVisible();
    await row(page, rejectMe.email)
      .getByRole('button', { name: `Reject ${rejectMe.name}` })
      .click();
    await expect(page.getByText(`${rejectMe.name}'s request was rejected.`)).toBeVisible();

    await page.getByLabel('Show').selectOption('all');
    await expect(page).toHaveURL(/status=all/);
    await expect(page).toHaveURL(/[?&]q=/);
    for (const [user, status] of [
      [approveMe, 'Approved'],
      [rejectMe, 'Rejected'],
    ] as const) {
      const decided = row(page, user.email);
      await expect(decided).toContainText(status);
      await expect(decided.getByRole('button', { name: `Approve ${user.name}` })).toBeDisabled();
      await expect(decided.getByRole('button', { name: `Reject ${user.name}` })).toBeDisabled();
    }
  });

  test(
    'class moderation: approve one pending class, reject another with a reason',
    { tag: '@postgres' },
    async ({ page, arrange }) => {
      const stamp = uniqueStamp();
      const toAccept = `Moderate me ${stamp} A`;
      const toReject = `Moderate me ${stamp} R`;
      const [admin, teacher] = await Promise.all([arrange.admin('classes-admin'), arrange.teacher('moderated')]);
      await Promise.all([
        arrange.pendingClass(teacher, { title: toAccept }),
        arrange.pendingClass(teacher, { title: toReject }),
      ]);
      await arrange.signIn(page, admin);
      await openFromMenu(page, 'All Classes');
      await expect(page).toHaveURL('/dashboard/allClasses');
      // Other tests' price edits may wait above it in "Changes to review", a table of its own.
      const classes = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Progress' }) });
      await expect(classes.getByRole('columnheader')).toHaveText([
        'Title',
        'Image',
        'Email',
        'Description',
        'Progress',
        'Actions',
      ]);
      await expect(page.getByLabel('Show')).toHaveValue('pending');
      // The search (the catalogue's, with every status for admins) finds them among the pending ones.
      await searchFor(page, 'Search by title, description or teacher', stamp);
      await expect(row(page, toAccept)).toBeVisible();
      await expect(row(page, toAccept)).toContainText(teacher.email);
      await row(page, toAccept)
        .getByRole('button', { name: `Approve ${toAccept}` })
        .click();
      await expect(page.getByText(`"${toAccept}" is accepted.`)).toBeVisible();
      await row(page, toReject)
        .getByRole('button', { name: `Reject ${toReject}` })
        .click();
      const reject = page.getByRole('dialog', { name: `Reject “${toReject}”?` });
      await reject.getByLabel('Reason (optional)').fill('Please add a syllabus.');
      await reject.getByRole('button', { name: 'Reject class' }).click();
      await expect(page.getByText(`"${toReject}" was rejected.`)).toBeVisible();

      await page.getByLabel('Show').selectOption('rejected');
      const rejectedRow = row(page, toReject);
      await expect(rejectedRow).toContainText('Please add a syllabus.');
      await expect(rejectedRow.getByRole('button', { name: `Progress of ${toReject}` })).toBeDisabled();
      await expect(rejectedRow.getByRole('button', { name: `Approve ${toReject}` })).toBeDisabled();

      await page.getByLabel('Show').selectOption('accepted');
      const acceptedRow = row(page, toAccept);
      await expect(acceptedRow.getByRole('button', { name: `Reject ${toAccept}` })).toBeDisabled();
      await expect(acceptedRow.getByRole('button', { name: `Approve ${toAccept}` })).toBeDisabled();
      // Its Progress opens the details: the progress-details test above.
      await expect(acceptedRow.getByRole('button', { name: `Progress of ${toAccept}` })).toBeEnabled();
    },
  );

  test('an admin reviews a pending class as its page will show it and approves it there', async ({ page, arrange }) => {
    const [admin, teacher] = await Promise.all([arrange.admin('review-admin'), arrange.teacher('reviewed')]);
    const description = `Week one: shapes and light.\nWeek two: colour. ${'A long paragraph. '.repeat(20)}`;
    const item = await arrange.pendingClass(teacher, {
      title: `Reviewed ${uniqueStamp()}`,
      price: 31.5,
      category: 'graphic-design',
      description,
    });
    await arrange.signIn(page, admin);
    await page.goto(`/dashboard/allClasses?status=pending&q=${encodeURIComponent(item.title)}`);
    await expectLoaded(page);
    // Progress leads nowhere before the class is accepted, so it is not offered (spec §2 notes).
    await expect(row(page, item.title).getByRole('button', { name: `Progress of ${item.title}` })).toBeDisabled();
    await row(page, item.title)
      .getByRole('button', { name: `Review ${item.title}` })
      .click();

    const review = page.getByRole('dialog', { name: `Review “${item.title}”` });
    const listing = review.getByRole('article', { name: `Preview of “${item.title}”` });
    await expect(listing.getByRole('heading', { name: item.title })).toBeVisible();
    await expect(listing.getByTestId('class-price')).toHaveText('Price: $31.50');
    await expect(listing).toContainText('Graphic design');
    await expect(listing).toContainText(teacher.name);
    // The whole description, as the class page shows it, not the table's three lines.
    await expect(listing.getByRole('region', { name: 'About this class' })).toContainText(description);
    await expectNoAxeViolationsInBothThemes(page);
    await review.getByRole('button', { name: 'Approve class' }).click();
    await expect(page.getByText(`"${item.title}" is accepted.`)).toBeVisible();
    await expect(review).toBeHidden();
  });

  test('the audit log records who decided what about whom', async ({ page, arrange }) => {
    const [admin, teacher] = await Promise.all([arrange.admin('audit-admin'), arrange.teacher('audited')]);
    const item = await arrange.pendingClass(teacher, { title: `Audited ${uniqueStamp()}` });
    const { version } = (await (await admin.api.get(`/api/classes/${item.id}`)).json()) as { version: string };
    const approved = await admin.api.patch(`/api/classes/class-requests/${item.id}/approve`, { data: { version } });
    expect(approved.ok(), await approved.text()).toBe(true);

    await arrange.signIn(page, admin);
    await openFromMenu(page, 'Audit Log');
    await expect(page).toHaveURL('/dashboard/audit');
    await expect(page.getByRole('columnheader')).toHaveText(['When', 'Who', 'What', 'Details']);
    // Other tests' decisions are recorded meanwhile, newest first: it may have moved on to the next page.
    // In people's words: the decision and the class's title, no ids.
    const entry = row(page, admin.email).filter({ hasText: `Approved the class “${item.title}”` });
    await seekInPagedList(page, '/dashboard/audit', page.getByRole('region', { name: 'Audit log' }), entry);
  });
});
