import type { Locator, Page } from '@playwright/test';
import { expect, test, uniqueStamp, type Arrange, type ArrangedClass, type Person } from '../fixtures/arrange.ts';
import { expectLoaded, expectNoAxeViolationsInBothThemes, expectReady } from '../fixtures/dashboard.ts';

/**
 * An edit of an accepted class waits for review (DESIGN §4): the catalogue keeps the approved
 * price until an admin has seen the change and approved it.
 */

/** The catalogue card of the class, searched for by its unique word. */
async function expectCataloguePrice(page: Page, word: string, price: string) {
  await expect(async () => {
    await page.goto(`/allClassAllowed?q=${word}`);
    const card = page.getByTestId('class-grid').getByRole('article');
    await expect(card).toHaveCount(1, { timeout: 2_000 });
    await expect(card.getByTestId('class-price')).toHaveText(`Price: ${price}`, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

/** A new teacher's accepted class at $25, titled with a word of its own. */
async function acceptedClassOfItsOwn(
  arrange: Arrange,
): Promise<{ teacher: Person; item: ArrangedClass; word: string }> {
  const word = `revisable${uniqueStamp()}`;
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Inking ${word}`, price: 25 });
  return { teacher, item, word };
}

/**
 * A new teacher's accepted class whose price they raised from $25 to $40, as the update form sends
 * it: the edit waits for review (the first test walks the form).
 */
async function pendingPriceEdit(arrange: Arrange) {
  const arranged = await acceptedClassOfItsOwn(arrange);
  const edited = await arranged.teacher.api.patch(`/api/classes/${arranged.item.id}`, { data: { price: 40 } });
  expect(edited.ok(), await edited.text()).toBe(true);
  expect(await edited.json()).toMatchObject({ pendingReview: true });
  return arranged;
}

/**
 * /dashboard/allClasses on the page of "Changes to review" that lists `title`: the queue is oldest
 * first, five a page, and other tests may leave edits waiting in it.
 */
async function openChangesWith(page: Page, title: string) {
  const changes = page.getByRole('region', { name: 'Changes to review', exact: true });
  for (let changesPage = 1; ; changesPage += 1) {
    await page.goto(`/dashboard/allClasses?changesPage=${changesPage}`);
    await expectReady(page);
    await expect(changes).toBeVisible();
    if ((await changes.getByRole('row').filter({ hasText: title }).count()) > 0) return changes;
    const next = page
      .getByRole('navigation', { name: 'Changes to review pages' })
      .getByRole('link', { name: 'Next', exact: true });
    if ((await next.count()) === 0) throw new Error(`"${title}" is not among the changes to review`);
  }
}

/**
 * Approves the change to `title` from its dialog, so that the queue every test shares does not
 * grow with each axe test.
 */
async function approveChangesTo(page: Page, changes: Locator, title: string) {
  const dialog = page.getByRole('dialog', { name: `Changes to “${title}”` });
  if (!(await dialog.isVisible())) await changes.getByRole('button', { name: `Review changes to ${title}` }).click();
  await dialog.getByRole('button', { name: 'Approve changes' }).click();
  await expect(page.getByText(`The changes to "${title}" are live.`)).toBeVisible();
}

test.describe('class revisions', () => {
  test.use({ reducedMotion: 'reduce' });

  test(
    'a price edit of an accepted class is sent for review while the approved price stays on sale',
    { tag: '@postgres' },
    async ({ page, browser, baseURL, arrange }) => {
      const { teacher, item, word } = await acceptedClassOfItsOwn(arrange);
      await expectCataloguePrice(page, word, '$25.00');

      const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
      try {
        const teacherPage = await teacherContext.newPage();
        await arrange.signIn(teacherPage, teacher);

        // The teacher raises the price: it is sent for review.
        await teacherPage.goto(`/dashboard/updateItem/${item.id}`);
        await expectLoaded(teacherPage);
        await expect(
          teacherPage.getByText('an admin reviews your changes before they replace the approved version'),
        ).toBeVisible();
        await expect(teacherPage.getByLabel('Price (USD)')).toHaveValue('25');
        await teacherPage.getByLabel('Price (USD)').fill('40');
        await teacherPage.getByRole('button', { name: 'Update Class' }).click();
        await expect(
          teacherPage.getByText(
            'Your changes were sent for review; the approved version stays on sale until an admin approves them.',
          ),
        ).toBeVisible();
        await expect(teacherPage).toHaveURL('/dashboard/myClass');
        await expectReady(teacherPage);
        const card = teacherPage
          .locator('article')
          .filter({ has: teacherPage.getByRole('heading', { name: item.title }) });
        await expect(card.getByText('Changes pending review')).toBeVisible();
        await expect(card).toContainText('$25.00');

        // Opening the form again shows the pending change.
        await card.getByRole('link', { name: 'Update' }).click();
        await expectReady(teacherPage);
        await expect(teacherPage.getByRole('status').filter({ hasText: 'Changes pending review' })).toBeVisible();
        await expect(teacherPage.getByLabel('Price (USD)')).toHaveValue('40');
      } finally {
        await teacherContext.close();
      }

      // The catalogue still sells the approved version.
      await expectCataloguePrice(page, word, '$25.00');
    },
  );

  test(
    'an admin sees the diff of a price edit, approves it, and the catalogue sells the new price',
    { tag: '@postgres' },
    async ({ page, browser, baseURL, arrange }) => {
      const [{ item, word }, admin] = await Promise.all([pendingPriceEdit(arrange), arrange.admin()]);

      const adminContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
      try {
        const adminPage = await adminContext.newPage();
        await arrange.signIn(adminPage, admin);

        // The admin sees the diff on All Classes and approves it.
        const changes = await openChangesWith(adminPage, item.title);
        await expect(changes.getByRole('row').filter({ hasText: item.title })).toContainText('Price');
        await changes.getByRole('button', { name: `Review changes to ${item.title}` }).click();
        const dialog = adminPage.getByRole('dialog', { name: `Changes to “${item.title}”` });
        await expect(dialog).toBeVisible();
        const priceRow = dialog.getByRole('row').filter({ has: adminPage.getByRole('rowheader', { name: 'Price' }) });
        await expect(priceRow.getByRole('cell')).toHaveText(['$25.00', '$40.00']);
        await expect(dialog.getByRole('rowheader')).toHaveText(['Price']);
        // The class page as it will look with the change: the new price beside the unchanged title.
        await dialog.getByText('Preview the class page with these changes').click();
        const preview = dialog.getByRole('article', { name: `Preview of “${item.title}”` });
        await expect(preview.getByTestId('class-price')).toHaveText('Price: $40.00');
        await expect(preview.getByRole('heading', { name: item.title })).toBeVisible();
        await dialog.getByRole('button', { name: 'Approve changes' }).click();
        await expect(adminPage.getByText(`The changes to "${item.title}" are live.`)).toBeVisible();
        await expect(dialog).toBeHidden();
        // Other tests' edits may still wait in the queue: this one has left it.
        await expect(adminPage.getByRole('button', { name: `Review changes to ${item.title}` })).toHaveCount(0);
      } finally {
        await adminContext.close();
      }

      // Now the catalogue sells the new price.
      await expectCataloguePrice(page, word, '$40.00');
    },
  );

  // Axe apart from the journeys above, one screen a test: each screen takes two passes of axe.
  test('axe: My Classes with a change pending review, light and dark', async ({ page, arrange }) => {
    const { teacher, item } = await pendingPriceEdit(arrange);
    await arrange.signIn(page, teacher);
    await page.goto('/dashboard/myClass');
    await expectReady(page);
    const card = page.locator('article').filter({ has: page.getByRole('heading', { name: item.title }) });
    await expect(card.getByText('Changes pending review')).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('axe: the update form of a class with a change pending review, light and dark', async ({ page, arrange }) => {
    const { teacher, item } = await pendingPriceEdit(arrange);
    await arrange.signIn(page, teacher);
    await page.goto(`/dashboard/updateItem/${item.id}`);
    await expectReady(page);
    await expect(page.getByRole('status').filter({ hasText: 'Changes pending review' })).toBeVisible();
    await expect(page.getByLabel('Price (USD)')).toHaveValue('40');
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('axe: the admin’s Changes to review, light and dark', async ({ page, arrange }) => {
    const [{ item }, admin] = await Promise.all([pendingPriceEdit(arrange), arrange.admin()]);
    await arrange.signIn(page, admin);
    const changes = await openChangesWith(page, item.title);
    await expectNoAxeViolationsInBothThemes(page);
    await approveChangesTo(page, changes, item.title);
  });

  test('axe: the admin’s dialog of a change, light and dark', async ({ page, arrange }) => {
    const [{ item }, admin] = await Promise.all([pendingPriceEdit(arrange), arrange.admin()]);
    await arrange.signIn(page, admin);
    const changes = await openChangesWith(page, item.title);
    await changes.getByRole('button', { name: `Review changes to ${item.title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Changes to “${item.title}”` });
    await expect(dialog.getByRole('rowheader')).toHaveText(['Price']);
    await dialog.getByText('Preview the class page with these changes').click();
    await expect(dialog.getByRole('article', { name: `Preview of “${item.title}”` })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
    await approveChangesTo(page, changes, item.title);
  });
});
