import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn } from '../fixtures/app.ts';
import { dashboardMenu, expectLoaded, makePng } from '../fixtures/dashboard.ts';

/** teacher3 of the seed has accepted and rejected classes (teacher1 only accepted ones). */
const TEACHER = 'teacher3@skillhive.test';

/** The first class card on any page of myClass that has `text`. */
async function findCard(page: Page, text: string): Promise<Locator> {
  await page.goto('/dashboard/myClass');
  for (;;) {
    await expect(page.locator('article').first()).toBeVisible();
    await expectLoaded(page);
    const card = page.locator('article').filter({ hasText: text }).first();
    if ((await card.count()) > 0) return card;
    const next = page.getByRole('link', { name: 'Next' });
    if ((await next.count()) === 0) throw new Error(`No class card with "${text}"`);
    const url = page.url();
    await next.click();
    await expect(page).not.toHaveURL(url);
  }
}

test.describe('teacher dashboard journey', () => {
  test('home figures, add a class with an uploaded image, update it, see an accepted class, delete', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await logIn(page, TEACHER);

    // teacherHome: greeting and figures.
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/teacherHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Hi, Welcome /);
    await expectLoaded(page);
    for (const label of ['Classes', 'Students enrolled', 'Paid students', 'Revenue']) {
      await expect(page.getByRole('definition').locator('xpath=..').filter({ hasText: label }).first()).toBeVisible();
    }
    await expect(page.getByText(/\d+ accepted · \d+ pending · \d+ rejected/)).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Classes by status' })).toBeVisible();
    // Earnings come from the server (GET /api/teachers/me/stats): revenue, per month, per class.
    const revenue = page.getByRole('definition').locator('xpath=..').filter({ hasText: 'Revenue' }).first();
    await expect(revenue.getByRole('definition').first()).toHaveText(/^\$[\d,]+\.\d{2}$/);
    await expect(page.getByRole('figure', { name: 'Revenue per month, last 12 months' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Earnings by class' })).toBeVisible();
    await expect(dashboardMenu(page).getByRole('link')).toHaveText([
      'Teacher Home',
      'Add a Class',
      'My Classes',
      'My Coupons',
      // A teacher may also study: their learning section too (issue 20 §2).
      'Student Home',
      'My Enrolled Classes',
      'Payment History',
      'Profile',
      'Home',
      'Classes Menu',
      'Contact',
    ]);

    // addClasses: spec §5 messages, read-only name and e-mail.
    await dashboardMenu(page).getByRole('link', { name: 'Add a Class' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Add a class' })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(TEACHER);
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
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

    const title = `E2E class ${Date.now().toString(36)}`;
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
    const card = page.locator('article').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(card.getByText('Pending', { exact: true })).toBeVisible();
    await expect(card).toContainText('$19.50');
    await expect(card).toContainText(TEACHER);
    await expect(card.getByRole('button', { name: 'See Details' })).toBeDisabled();
    await expect(card.locator('img')).toHaveAttribute('src', /^\/api\/uploads\/images\//);

    // A rejected class shows its reason (seeded).
    const rejected = await findCard(page, 'Rejected');
    await expect(rejected).toContainText('Rejection reason:');
    await expect(rejected.getByRole('button', { name: 'See Details' })).toBeDisabled();
    await page.goto('/dashboard/myClass');

    // updateItem: pre-filled; the current image is kept.
    await card.getByRole('link', { name: 'Update' }).click();
    await expect(page).toHaveURL(/\/dashboard\/updateItem\//);
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(page.getByLabel('Price (USD)')).toHaveValue('19.5');
    await expect(page.getByLabel('Category')).toHaveValue('data-science');
    await expect(page.getByRole('img', { name: 'The current class image' })).toBeVisible();
    await page.getByLabel('Title').fill(`${title} (updated)`);
    await page.getByLabel('Price (USD)').fill('24.99');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await expect(page.getByText('Your class was updated successfully.')).toBeVisible();
    await expect(page).toHaveURL('/dashboard/myClass');
    const updated = page.locator('article').filter({ has: page.getByRole('heading', { name: `${title} (updated)` }) });
    await expect(updated).toContainText('$24.99');
    await expect(updated.locator('img')).toHaveAttribute('src', /^\/api\/uploads\/images\//);

    // my-class/:id for an accepted class: details, figures and the weekly chart.
    const accepted = await findCard(page, 'Accepted');
    const acceptedTitle = (await accepted.getByRole('heading').textContent())?.trim() ?? '';
    await accepted.getByRole('button', { name: 'See Details' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-class\//);
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: acceptedTitle })).toBeVisible();
    await expect(page.getByText('Enrolled students')).toBeVisible();
    await expect(page.getByText('Paid students')).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Enrolments per week' })).toBeVisible();
    // The roster: who enrolled (GET /api/teachers/me/classes/:id/roster).
    await expect(page.getByRole('heading', { level: 2, name: /^Students/ })).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: 'Students of this class' })
        .or(page.getByText('Nobody has enrolled in this class yet.')),
    ).toBeVisible();

    // Delete with the spec's confirmation.
    await page.goto('/dashboard/myClass');
    await updated.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete "${title} (updated)"?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("You won't be able to revert this!");
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText(`"${title} (updated)" has been deleted.`)).toBeVisible();
    await expect(updated).toHaveCount(0);

    // profile shows the teacher role.
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    // The page before (My Classes' cards, the users list) has definition lists too: wait for the profile.
    await expect(page).toHaveURL('/dashboard/profile');
    await expectLoaded(page);
    await expect(page.locator('dl')).toContainText('Teacher');
  });
});
