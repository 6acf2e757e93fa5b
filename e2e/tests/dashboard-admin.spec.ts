import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, logIn, newUser } from '../fixtures/app.ts';
import { apiSession, createClassVia, dashboardMenu, expectLoaded } from '../fixtures/dashboard.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

function row(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

test.describe('admin dashboard journey', () => {
  test('home figures, users, teacher requests, class moderation, progress details and the audit log', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const base = baseURL!;

    // Arrange: four new users (to promote, delete, approve and reject) and two pending classes.
    const [promoteMe, deleteMe, approveMe, rejectMe] = ['promote', 'delete', 'approve', 'reject'].map((label) =>
      newUser(label),
    );
    for (const user of [promoteMe!, deleteMe!])
      await (await apiSession(base, user.email, user.password, user)).dispose();
    for (const [user, title] of [
      [approveMe!, 'Data storytelling'],
      [rejectMe!, 'Spreadsheet magic'],
    ] as const) {
      const api = await apiSession(base, user.email, user.password, user);
      // Applying needs a verified address (issue 19 §2): follow the link from the mail.
      await verifyEmailViaMailbox(base, user.email);
      const applied = await api.post('/api/teachers/teacher-requests', {
        data: { experience: 'mid-level', title, category: 'data-science' },
      });
      expect(applied.ok()).toBe(true);
      await api.dispose();
    }
    const teacher = await apiSession(base, DEMO.teacher, DEMO_PASSWORD);
    const stamp = Date.now().toString(36);
    const toAccept = `Moderate me ${stamp} A`;
    const toReject = `Moderate me ${stamp} R`;
    await createClassVia(teacher, toAccept);
    await createClassVia(teacher, toReject);
    await teacher.dispose();

    await logIn(page, DEMO.admin);

    // adminHome: greeting and platform figures with charts.
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/adminHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Hi, Welcome /);
    await expectLoaded(page);
    await expect(page.getByRole('figure', { name: 'Users by role' })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Classes by status' })).toBeVisible();
    await expect(dashboardMenu(page).getByRole('link')).toHaveText([
      'Admin Home',
      'Teacher Requests',
      'Users',
      'All Classes',
      // Refund requests and refunds by payment (issue 18 §3).
      'Refunds',
      'Coupons',
      'Audit Log',
      // No SMTP server in the e2e run: mail waits in the outbox, which admins read here.
      'Mailbox',
      // Every account may enrol: the learning section follows (issue 20 §2).
      'Student Home',
      'My Enrolled Classes',
      'Payment History',
      'Profile',
      'Home',
      'Classes Menu',
      'Contact',
    ]);

    // users: search, Make Admin only for non-admins, Delete with confirmation, pagination.
    await dashboardMenu(page).getByRole('link', { name: 'Users' }).click();
    await expectLoaded(page);
    await expect(page.getByRole('columnheader')).toHaveText(['#', 'Name', 'Email', 'Role', 'Action']);
    await expect(page.getByRole('navigation', { name: 'Users pages' })).toBeVisible();
    await expect(row(page, DEMO.admin).getByRole('button', { name: /^Make Admin/ })).toHaveCount(0);
    await page.getByLabel('Search by name or e-mail').fill(promoteMe!.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/q=/);
    await expect(page.getByRole('row')).toHaveCount(2);
    await row(page, promoteMe!.email)
      .getByRole('button', { name: `Make Admin: ${promoteMe!.name}` })
      .click();
    // Promoting asks first, naming the person (issue 20 §1).
    const promoteDialog = page.getByRole('dialog', { name: `Make ${promoteMe!.name} admin?` });
    await promoteDialog.getByRole('button', { name: 'Yes, make admin' }).click();
    await expect(page.getByText(`${promoteMe!.name} is an admin now.`)).toBeVisible();
    await expect(row(page, promoteMe!.email).getByRole('cell', { name: 'Admin', exact: true })).toBeVisible();
    await expect(row(page, promoteMe!.email).getByRole('button', { name: /^Make / })).toHaveCount(0);

    await page.getByLabel('Search by name or e-mail').fill(deleteMe!.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await row(page, deleteMe!.email)
      .getByRole('button', { name: `Delete ${deleteMe!.name}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `Delete ${deleteMe!.name}?` });
    await expect(confirm).toContainText("You won't be able to revert this!");
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText(`${deleteMe!.name} has been deleted.`)).toBeVisible();
    await expect(page.getByText('No users match your search.')).toBeVisible();

    // teacherRequest: approve and reject, enabled only while pending.
    await dashboardMenu(page).getByRole('link', { name: 'Teacher Requests' }).click();
    await expectLoaded(page);
    await expect(page.getByRole('columnheader')).toHaveText([
      'Name',
      'Image',
      'Experience',
      'Title',
      'Category',
      'Status',
      'Actions',
    ]);
    // The moderation tables open on what waits for a decision (issue 20 §6).
    await expect(page.getByLabel('Show')).toHaveValue('pending');
    const approveRow = row(page, approveMe!.email);
    await expect(approveRow).toContainText('Mid-level');
    await expect(approveRow).toContainText('Data science');
    await expect(approveRow.getByRole('img', { name: `Photo of ${approveMe!.name}` })).toBeVisible();
    await approveRow.getByRole('button', { name: `Approve ${approveMe!.name}` }).click();
    await expect(page.getByText(`${approveMe!.name} is a teacher now.`)).toBeVisible();
    await row(page, rejectMe!.email)
      .getByRole('button', { name: `Reject ${rejectMe!.name}` })
      .click();
    await expect(page.getByText(`${rejectMe!.name}'s request was rejected.`)).toBeVisible();
    await page.getByLabel('Show').selectOption('all');
    await expect(page).toHaveURL(/status=all/);
    for (const [user, status] of [
      [approveMe!, 'Approved'],
      [rejectMe!, 'Rejected'],
    ] as const) {
      const decided = row(page, user.email);
      await expect(decided).toContainText(status);
      await expect(decided.getByRole('button', { name: `Approve ${user.name}` })).toBeDisabled();
      await expect(decided.getByRole('button', { name: `Reject ${user.name}` })).toBeDisabled();
    }

    // allClasses: approve one pending class, reject the other with a reason.
    await dashboardMenu(page).getByRole('link', { name: 'All Classes' }).click();
    await expectLoaded(page);
    await expect(page.getByRole('columnheader')).toHaveText([
      'Title',
      'Image',
      'Email',
      'Description',
      'Progress',
      'Actions',
    ]);
    await expect(page.getByLabel('Show')).toHaveValue('pending');
    // The search (the catalogue's, with every status for admins) finds it among the pending ones.
    await page.getByLabel('Search by title, description or teacher').fill(toAccept);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/q=/);
    await expect(row(page, toAccept)).toBeVisible();
    await row(page, toAccept)
      .getByRole('button', { name: `Approve ${toAccept}` })
      .click();
    await expect(page.getByText(`"${toAccept}" is accepted.`)).toBeVisible();
    await page.getByLabel('Search by title, description or teacher').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
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
    await acceptedRow.getByRole('button', { name: `Progress of ${toAccept}` }).click();

    // seeProgressDetails: name, email, price, description, title, image and figures.
    await expect(page).toHaveURL(/\/dashboard\/seeProgressDetails\//);
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: toAccept })).toBeVisible();
    await expect(page.getByRole('img', { name: `Image of ${toAccept}` })).toBeVisible();
    await expect(page.locator('dl').first()).toContainText(DEMO.teacher);
    await expect(page.locator('dl').first()).toContainText('$25.00');
    await expect(page.getByText(`${toAccept}: a class arranged by the end-to-end tests.`)).toBeVisible();
    await expect(page.getByText('Enrolled students')).toBeVisible();
    await expect(page.getByText('No enrolments yet.')).toBeVisible();

    // The audit log records the decisions.
    await dashboardMenu(page).getByRole('link', { name: 'Audit Log' }).click();
    await expectLoaded(page);
    await expect(page.getByRole('columnheader')).toHaveText(['When', 'Who', 'What', 'Whom', 'Details']);
    await expect(page.getByRole('row').filter({ hasText: DEMO.admin }).first()).toBeVisible();
    await expect(page.getByRole('table')).toContainText(toAccept);

    // profile.
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    // The page before (My Classes' cards, the users list) has definition lists too: wait for the profile.
    await expect(page).toHaveURL('/dashboard/profile');
    await expectLoaded(page);
    await expect(page.locator('dl')).toContainText('Admin');
    await expect(page.locator('dl')).toContainText(DEMO.admin);
  });
});
