import { expect, test, type Person } from '../fixtures/arrange.ts';

/** /teach (spec §2, §4): the application form and the request's status, before and after a decision. */

/** As an admin, through the API: `decision` on the applicant's latest request. */
async function decide(admin: Person, applicant: Person, decision: 'approve' | 'reject') {
  const mine = await applicant.api.get('/api/teachers/teacher-requests/mine');
  expect(mine.ok(), await mine.text()).toBe(true);
  const request = (await mine.json()) as { _id: string; status: string } | null;
  expect(request?.status, `a pending request by ${applicant.email}`).toBe('pending');
  const response = await admin.api.patch(`/api/teachers/teacher-requests/${request!._id}/${decision}`);
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe('/teach', () => {
  test('asks a signed-out visitor to sign in, and brings them back', async ({ page }) => {
    await page.goto('/teach');
    await expect(page.getByRole('heading', { name: 'Sign in to apply' })).toBeVisible();
    await page.getByRole('link', { name: 'Sign in to apply' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Sign in to SkillHive' })).toBeVisible();
  });

  test('a student applies and sees the request pending, also on later visits', async ({ page, arrange }) => {
    // Applying needs a verified address: arranged people are verified.
    const user = await arrange.user('applicant');
    await arrange.signIn(page, user);
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teach On the platform' }).click();
    await expect(page).toHaveURL('/teach');

    const name = page.getByLabel('Name');
    await expect(name).toHaveValue(user.name);
    await expect(name).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('img', { name: 'Your photo' })).toHaveAttribute('src', user.image);
    await expect(page.getByLabel('Experience')).toHaveValue('');
    await expect(page.getByLabel('Category')).toHaveValue('');

    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByText('Experience is required')).toBeVisible();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByText('Category is required')).toBeVisible();

    await page.getByLabel('Title').fill('Accessible front-end engineering');
    await page.getByLabel('Experience').selectOption('experienced');
    await page.getByLabel('Category').selectOption('web-development');
    await page.getByRole('button', { name: 'Submit for review' }).click();

    const status = page.getByTestId('teacher-request-status');
    await expect(status.getByRole('heading', { name: 'Your application is under review' })).toBeVisible();
    await expect(status).toContainText('Pending');
    await expect(status).toContainText('Accessible front-end engineering');

    await page.reload();
    await expect(page.getByTestId('teacher-request-status')).toContainText('Pending');
    await expect(page.getByRole('button', { name: 'Submit for review' })).toHaveCount(0);
  });
});

test.describe('/teach after a decision', () => {
  test('rejected → "Apply again" shows the form; approved → a link to the teacher dashboard', async ({
    page,
    arrange,
  }) => {
    const [user, admin] = await Promise.all([arrange.user('decided'), arrange.admin()]);
    await arrange.signIn(page, user);
    await page.goto('/teach');
    await page.getByLabel('Title').fill('Data storytelling');
    await page.getByLabel('Experience').selectOption('mid-level');
    await page.getByLabel('Category').selectOption('data-science');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByTestId('teacher-request-status')).toContainText('Pending');

    await decide(admin, user, 'reject');
    await page.reload();
    const status = page.getByTestId('teacher-request-status');
    await expect(status).toContainText('Rejected');
    await status.getByRole('button', { name: 'Apply again' }).click();
    await expect(page.getByLabel('Title')).toHaveValue('');
    await page.getByLabel('Title').fill('Data storytelling, with a weekly outline');
    await page.getByLabel('Experience').selectOption('experienced');
    await page.getByLabel('Category').selectOption('data-science');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByTestId('teacher-request-status')).toContainText('Pending');

    await decide(admin, user, 'approve');
    await page.reload();
    await expect(page.getByTestId('teacher-request-status')).toContainText('Approved');
    await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute(
      'href',
      '/dashboard/teacherHome',
    );
  });
});
