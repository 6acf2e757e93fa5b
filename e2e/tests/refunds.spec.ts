import { test, expect, type Arrange } from '../fixtures/arrange.ts';
import { expectNoAxeViolationsInBothThemes, expectReady } from '../fixtures/dashboard.ts';

const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

/**
 * Refunds: a student who paid for a class (arranged through the API) asks for a refund of it with
 * a reason; an admin approves a request on the Refunds page; the student sees the class refunded
 * and can buy it again.
 */

const REASON = 'The schedule no longer suits me';

/** A student who paid for a class of a teacher of their own; returns the paid enrollment's id too. */
async function paidClass(arrange: Arrange) {
  const [teacher, student] = await Promise.all([arrange.teacher(), arrange.student('refund')]);
  const item = await arrange.acceptedClass(teacher);
  const enrollmentId = await arrange.cartLine(student, item.id);
  await arrange.paidEnrollment(student, []);
  return { student, item, enrollmentId };
}

test.describe('refunds', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a student asks for a refund with a reason; the card then waits for a decision', async ({ page, arrange }) => {
    const { student, item } = await paidClass(arrange);
    await arrange.signIn(page, student);

    await page.goto('/dashboard/myEnrollClass');
    const enrolled = page.getByRole('article', { name: item.title });
    await enrolled.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = page.getByRole('dialog', { name: `Request a refund of “${item.title}”?` });
    await dialog.getByLabel('Reason').fill(REASON);
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(enrolled.getByText('Refund requested: waiting for a decision.')).toBeVisible();
  });

  test(
    'an admin approves the request on the Refunds page; the student sees the class refunded and can buy it again',
    { tag: '@postgres' },
    async ({ page, browser, baseURL, arrange }) => {
      // Two axe passes (light, dark), each also finished in a blank page: slow on a loaded machine.
      test.setTimeout(60_000);
      const [{ student, item, enrollmentId }, admin] = await Promise.all([paidClass(arrange), arrange.admin()]);
      // The student's request, as the dialog of the test above sends it.
      const requested = await student.api.post('/api/refund-requests', { data: { enrollmentId, reason: REASON } });
      expect(requested.status(), await requested.text()).toBe(201);

      // The admin, in a browser of their own, approves it on the Refunds page.
      const adminContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
      try {
        const adminPage = await adminContext.newPage();
        await arrange.signIn(adminPage, admin);
        await adminPage.goto('/dashboard/refunds');
        await expect(adminPage.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();
        const approve = adminPage.getByRole('button', {
          name: `Approve the refund of ${item.title} for ${student.email}`,
        });
        await expect(approve.locator('xpath=ancestor::tr')).toContainText(REASON);
        await expectReady(adminPage);
        await expectNoAxeViolationsInBothThemes(adminPage);
        await approve.click();
        // Money goes back only once confirmed, as making someone admin is.
        const confirm = adminPage.getByRole('dialog', { name: `Refund ${usd(item.price)} for “${item.title}”?` });
        await expect(confirm).toContainText(`${student.email} gets`);
        await confirm.getByRole('button', { name: 'Yes, refund' }).click();
        await expect(approve).toHaveCount(0);
      } finally {
        await adminContext.close();
      }

      // The student sees the class refunded, no longer reviewable, and can buy it again.
      await arrange.signIn(page, student);
      await page.goto('/dashboard/myEnrollClass');
      await expectReady(page);
      const enrolled = page.getByRole('article', { name: item.title });
      await expect(enrolled.getByText('Refunded', { exact: true })).toBeVisible();
      await expect(enrolled.getByRole('button', { name: 'Request a refund' })).toHaveCount(0);
      await page.goto(`/classes/${item.id}`);
      await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Pay Now' })).toBeVisible();
    },
  );
});
