import type { Locator, Page } from '@playwright/test';
import { expect, test, uniqueStamp, type Arrange, type ArrangedClass, type Person } from '../fixtures/arrange.ts';
import { dashboardMenu, expectLoaded, expectReady, makePng } from '../fixtures/dashboard.ts';

/**
 * The teacher's dashboard (spec §2, §5): home figures, adding a class with an uploaded image,
 * updating and deleting it, My Classes' statuses and an accepted class's details. Each test
 * arranges a new teacher, whose figures are theirs alone.
 */

/** A StatCard of a dashboard home (or of one of its sections): its value and hint, under its label. */
function statCard(scope: Page | Locator, label: string) {
  // The label is looked for inside each card: a locator from the page, not from the scope.
  const page = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
  return scope
    .getByRole('definition')
    .locator('xpath=..')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) });
}

/** The card of My Classes whose heading is `title`. */
function classCard(page: Page, title: string) {
  return page.locator('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

interface TeacherWithClasses {
  teacher: Person;
  student: Person;
  accepted: ArrangedClass;
  pending: ArrangedClass;
  rejected: ArrangedClass;
}

/** A new teacher with an accepted class one student paid $30 for, a pending one and a rejected one. */
async function teacherWithClasses(arrange: Arrange): Promise<TeacherWithClasses> {
  const [teacher, student] = await Promise.all([arrange.teacher(), arrange.student()]);
  const stamp = uniqueStamp();
  const [accepted, pending, rejected] = await Promise.all([
    arrange.acceptedClass(teacher, { title: `Accepted class ${stamp}`, price: 30 }),
    arrange.pendingClass(teacher, { title: `Pending class ${stamp}`, price: 15 }),
    arrange.pendingClass(teacher, { title: `Rejected class ${stamp}`, price: 12 }),
  ]);
  await Promise.all([
    arrange.rejectClass(rejected.id, 'The outline needs a week-by-week plan.'),
    arrange.paidEnrollment(student, [accepted.id]),
  ]);
  return { teacher, student, accepted, pending, rejected };
}

test.describe('teacher dashboard', () => {
  test.use({ reducedMotion: 'reduce' });

  test('teacherHome: the greeting, the teacher’s own figures, charts and earnings, the menu; Teacher on the profile', async ({
    page,
    arrange,
  }) => {
    const { teacher, accepted, pending, rejected } = await teacherWithClasses(arrange);
    await arrange.signIn(page, teacher);

    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/teacherHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Hi, Welcome /);
    await expectReady(page);
    // Earnings come from the server's ledger (GET /api/teachers/me/stats): the teacher's share of
    // the $30 after the default 20 % fee, held for the refund window; per month and per class.
    await expect(statCard(page, 'Classes').getByRole('definition')).toHaveText([
      '3',
      '1 accepted · 1 pending · 1 rejected',
    ]);
    // The hint says "1 paid enrollments" today (teacher-home.tsx does not use countOf): either reads.
    await expect(statCard(page, 'Paid students').getByRole('definition')).toHaveText(['1', /^1 paid enrollments?$/]);
    await expect(statCard(page, 'Earnings').getByRole('definition').first()).toHaveText('$24.00');
    const balance = page.getByRole('region', { name: 'Where your earnings are' });
    await expect(statCard(balance, 'Pending').getByRole('definition').first()).toHaveText('$24.00');
    await expect(statCard(balance, 'Available').getByRole('definition').first()).toHaveText('$0.00');
    await expect(statCard(balance, 'Paid out').getByRole('definition')).toHaveText(['$0.00']);
    await expect(balance.getByRole('link', { name: 'Earnings and payouts' })).toHaveAttribute(
      'href',
      '/dashboard/earnings',
    );
    await expect(page.getByRole('figure', { name: 'Classes by status' })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Earnings per month, last 12 months' })).toBeVisible();
    const earnings = page.getByRole('region', { name: 'Earnings by class' });
    await expect(earnings.getByRole('row', { name: new RegExp(accepted.title) })).toHaveText(
      new RegExp(`${accepted.title}\\s*Accepted\\s*1\\s*\\$24\\.00`),
    );
    await expect(earnings.getByRole('row', { name: new RegExp(pending.title) })).toContainText('$0.00');
    await expect(earnings.getByRole('row', { name: new RegExp(rejected.title) })).toContainText('Rejected');
    await expect(dashboardMenu(page).getByRole('link')).toHaveText([
      'Teacher Home',
      'Add a Class',
      'My Classes',
      'My Coupons',
      'Earnings',
      // A teacher may also study: their learning section too.
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

    // profile shows the teacher role.
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    // The page before has definition lists too: wait for the profile.
    await expect(page).toHaveURL('/dashboard/profile');
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expectLoaded(page);
    await expect(page.locator('dl')).toContainText('Teacher');
  });

  test('addClasses: the spec’s messages, read-only name and e-mail; a class with an uploaded image waits for review', async ({
    page,
    arrange,
  }) => {
    const teacher = await arrange.teacher();
    await arrange.signIn(page, teacher);
    await page.goto('/dashboard/teacherHome');
    await expect(page.getByRole('heading', { name: 'You have no classes yet' })).toBeVisible();

    // addClasses: spec §5 messages, read-only name and e-mail.
    await dashboardMenu(page).getByRole('link', { name: 'Add a Class' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Add a class' })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(teacher.email);
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(teacher.name);
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('readonly', '');
    await page.getByRole('button', { name: 'Add Class' }).click();
    for (const message of [
      'Title is required',
      'Price is required',
      'Description is required',
      'Category is required',
      'Image is required',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }

    const title = `E2E class ${uniqueStamp()}`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Price (USD)').fill('0.1');
    await page.getByLabel('Description').fill('A class added by the end-to-end tests, with an uploaded image.');
    await page.getByLabel('Category').selectOption('data-science');
    await page
      .getByLabel('Image', { exact: true })
      .setInputFiles({ name: 'class.png', mimeType: 'image/png', buffer: makePng() });
    await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '100');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect(page.getByText('Price must be between 0.50 and 10,000')).toBeVisible();
    await page.getByLabel('Price (USD)').fill('19.5');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect(page.getByText('Your class was added and is waiting for review.')).toBeVisible();

    // myClass: the new class is pending; See Details only for accepted classes.
    await expect(page).toHaveURL('/dashboard/myClass');
    await expectLoaded(page);
    const card = classCard(page, title);
    await expect(card.getByText('Pending', { exact: true })).toBeVisible();
    await expect(card).toContainText('$19.50');
    await expect(card).toContainText(teacher.email);
    await expect(card.getByRole('button', { name: 'See Details' })).toBeDisabled();
    await expect(card.locator('img')).toHaveAttribute('src', /^\/api\/uploads\/images\//);
  });

  test('updateItem: the form is pre-filled and keeps the image; the update shows on My Classes; Delete asks first', async ({
    page,
    arrange,
  }) => {
    const teacher = await arrange.teacher();
    const item = await arrange.pendingClass(teacher, {
      title: `E2E class ${uniqueStamp()}`,
      price: 19.5,
      category: 'data-science',
    });
    await arrange.signIn(page, teacher);

    // updateItem: pre-filled; the current image is kept.
    await page.goto('/dashboard/myClass');
    await expectReady(page);
    await classCard(page, item.title).getByRole('link', { name: 'Update' }).click();
    await expect(page).toHaveURL(`/dashboard/updateItem/${item.id}`);
    await expect(page.getByLabel('Title')).toHaveValue(item.title);
    await expect(page.getByLabel('Price (USD)')).toHaveValue('19.5');
    await expect(page.getByLabel('Category')).toHaveValue('data-science');
    await expect(page.getByRole('img', { name: 'The current class image' })).toBeVisible();
    const newTitle = `${item.title} (updated)`;
    await page.getByLabel('Title').fill(newTitle);
    await page.getByLabel('Price (USD)').fill('24.99');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await expect(page.getByText('Your class was updated successfully.')).toBeVisible();
    await expect(page).toHaveURL('/dashboard/myClass');
    const updated = classCard(page, newTitle);
    await expect(updated).toContainText('$24.99');
    await expect(updated.locator('img')).toHaveAttribute('src', /^\/api\/uploads\/images\//);

    // Delete with the spec's confirmation.
    await updated.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete "${newTitle}"?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("You won't be able to revert this!");
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText(`"${newTitle}" has been deleted.`)).toBeVisible();
    await expect(updated).toHaveCount(0);
  });

  test('myClass: a rejected class shows its reason; an accepted one opens its figures, weekly chart and roster', async ({
    page,
    arrange,
  }) => {
    const { teacher, student, accepted, rejected } = await teacherWithClasses(arrange);
    await arrange.signIn(page, teacher);
    await page.goto('/dashboard/myClass');
    await expectReady(page);

    // A rejected class shows its reason; See Details only for accepted classes.
    const rejectedCard = classCard(page, rejected.title);
    await expect(rejectedCard.getByText('Rejected', { exact: true })).toBeVisible();
    await expect(rejectedCard).toContainText('Rejection reason: The outline needs a week-by-week plan.');
    await expect(rejectedCard.getByRole('button', { name: 'See Details' })).toBeDisabled();

    // my-class/:id for an accepted class: details, figures and the weekly chart.
    await classCard(page, accepted.title).getByRole('button', { name: 'See Details' }).click();
    await expect(page).toHaveURL(`/dashboard/my-class/${accepted.id}`);
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: accepted.title })).toBeVisible();
    // Students are paid lines (decision 003): the figure counts no cart.
    await expect(statCard(page, 'Paid students').getByRole('definition')).toHaveText(['1']);
    await expect(statCard(page, 'Revenue').getByRole('definition')).toHaveText(['$30.00']);
    await expect(page.getByRole('figure', { name: 'Paid enrollments per week' })).toBeVisible();
    // The roster: who enrolled (GET /api/teachers/me/classes/:id/roster).
    await expect(page.getByRole('heading', { level: 2, name: /^Students/ })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Students of this class' })).toContainText(student.name);
  });
});
