import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, logIn, logOut } from '../fixtures/app.ts';
import { apiSession, createClassVia, expectLoaded, expectNoAxeViolations } from '../fixtures/dashboard.ts';

/**
 * An edit of an accepted class waits for review (DESIGN §4): the catalogue keeps the approved
 * price until an admin has seen the change and approved it.
 */

/** The catalogue card of `title`, searched for by its unique word (the public page is cached 1 s). */
async function expectCataloguePrice(page: Page, word: string, price: string) {
  await expect(async () => {
    await page.goto(`/allClassAllowed?q=${word}`);
    const card = page.getByTestId('class-grid').getByRole('article');
    await expect(card).toHaveCount(1, { timeout: 2_000 });
    await expect(card.getByTestId('class-price')).toHaveText(`Price: ${price}`, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

test.describe('class revisions', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a price edit of an accepted class stays off sale until an admin approves the diff', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const base = baseURL!;
    const word = `revisable${Date.now().toString(36)}`;
    const title = `Inking ${word}`;

    // Arrange: the demo teacher's new class, accepted by the demo admin.
    const teacherApi = await apiSession(base, DEMO.teacher, DEMO_PASSWORD);
    const classId = await createClassVia(teacherApi, title, 25);
    await teacherApi.dispose();
    const adminApi = await apiSession(base, DEMO.admin, DEMO_PASSWORD);
    const accepted = await adminApi.patch(`/api/classes/class-requests/${classId}/approve`);
    expect(accepted.ok(), await accepted.text()).toBe(true);
    await adminApi.dispose();
    await expectCataloguePrice(page, word, '$25.00');

    // The teacher raises the price: it is sent for review.
    await logIn(page, DEMO.teacher);
    await page.goto(`/dashboard/updateItem/${classId}`);
    await expectLoaded(page);
    await expect(
      page.getByText('an admin reviews your changes before they replace the approved version'),
    ).toBeVisible();
    await expect(page.getByLabel('Price (USD)')).toHaveValue('25');
    await page.getByLabel('Price (USD)').fill('40');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await expect(
      page.getByText(
        'Your changes were sent for review; the approved version stays on sale until an admin approves them.',
      ),
    ).toBeVisible();
    await expect(page).toHaveURL('/dashboard/myClass');
    await expectLoaded(page);
    const card = page.locator('article').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(card.getByText('Changes pending review')).toBeVisible();
    await expect(card).toContainText('$25.00');
    await expectNoAxeViolations(page);

    // Opening the form again shows the pending change.
    await card.getByRole('link', { name: 'Update' }).click();
    await expectLoaded(page);
    await expect(page.getByRole('status').filter({ hasText: 'Changes pending review' })).toBeVisible();
    await expect(page.getByLabel('Price (USD)')).toHaveValue('40');
    await expectNoAxeViolations(page);

    // The catalogue still sells the approved version.
    await logOut(page);
    await expectCataloguePrice(page, word, '$25.00');

    // The admin sees the diff on All Classes and approves it.
    await logIn(page, DEMO.admin);
    await page.goto('/dashboard/allClasses');
    await expectLoaded(page);
    const changes = page.getByRole('region', { name: 'Changes to review', exact: true });
    await expect(changes.getByRole('row').filter({ hasText: title })).toContainText('Price');
    await expectNoAxeViolations(page);
    await changes.getByRole('button', { name: `Review changes to ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Changes to “${title}”` });
    await expect(dialog).toBeVisible();
    const priceRow = dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Price' }) });
    await expect(priceRow.getByRole('cell')).toHaveText(['$25.00', '$40.00']);
    await expect(dialog.getByRole('rowheader')).toHaveText(['Price']);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Approve changes' }).click();
    await expect(page.getByText(`The changes to "${title}" are live.`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Changes to review', exact: true })).toHaveCount(0);

    // Now the catalogue sells the new price.
    await logOut(page);
    await expectCataloguePrice(page, word, '$40.00');
  });
});
