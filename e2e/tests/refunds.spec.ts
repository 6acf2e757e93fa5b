import { expect, test } from '@playwright/test';
import {
  openAdminPage,
  openPaymentForFirstClass,
  payWithTestCard,
  signUpVerifiedStudent,
} from '../fixtures/checkout.ts';
import { expectLoaded, expectNoAxeViolations } from '../fixtures/dashboard.ts';

/**
 * Issue 18 §3: a student pays with the test gateway, asks for a refund of the class with a reason;
 * the admin approves it on the Refunds page; the student sees the class refunded and can buy it
 * again.
 */
test.describe('refunds', () => {
  test.use({ reducedMotion: 'reduce' });

  test('request, approve, and the student sees the refund', async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    const student = await signUpVerifiedStudent(page, baseURL!, 'refund');

    // Pay for the first class of the catalogue with the card that succeeds.
    const { title, classUrl } = await openPaymentForFirstClass(page);
    await payWithTestCard(page);

    // Ask for a refund, with a reason; the card then says it waits for a decision.
    const enrolled = page.getByRole('article', { name: title });
    await enrolled.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = page.getByRole('dialog', { name: `Request a refund of “${title}”?` });
    await dialog.getByLabel('Reason').fill('The schedule no longer suits me');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(enrolled.getByText('Refund requested: waiting for a decision.')).toBeVisible();

    // The admin, in a browser of their own, approves it on the Refunds page.
    const { admin, adminContext } = await openAdminPage(browser, baseURL!, 'Refunds', '/dashboard/refunds');
    const approve = admin.getByRole('button', { name: `Approve the refund of ${title} for ${student.email}` });
    await expect(approve.locator('xpath=ancestor::tr')).toContainText('The schedule no longer suits me');
    await expectNoAxeViolations(admin);
    await approve.click();
    await expect(approve).toHaveCount(0);
    await adminContext.close();

    // The student sees the class refunded, no longer reviewable, and can buy it again.
    await page.reload();
    await expectLoaded(page);
    await expect(enrolled.getByText('Refunded', { exact: true })).toBeVisible();
    await expect(enrolled.getByRole('button', { name: 'Request a refund' })).toHaveCount(0);
    await page.goto(classUrl);
    await expect(page.getByRole('button', { name: 'Pay Now' })).toBeVisible();
  });
});
