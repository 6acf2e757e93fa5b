import { expect, test } from '@playwright/test';
import { DEMO, logIn, newUser, signUp } from '../fixtures/app.ts';
import { dashboardMenu, expectLoaded, expectNoAxeViolations } from '../fixtures/dashboard.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/**
 * Issue 18 §3: a student pays with the test gateway, asks for a refund of the class with a reason;
 * the admin approves it on the Refunds page; the student sees the class refunded and can buy it
 * again.
 */
test.describe('refunds', () => {
  test.use({ reducedMotion: 'reduce' });

  test('request, approve, and the student sees the refund', async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    const student = newUser('refund');
    await signUp(page, student);
    await verifyEmailViaMailbox(baseURL!, student.email);

    // Pay for the first class of the catalogue with the card that succeeds.
    await page.goto('/allClassAllowed');
    const card = page
      .locator('article')
      .filter({ has: page.getByRole('link', { name: 'Enroll Now' }) })
      .first();
    const title = (await card.getByRole('heading').first().textContent())?.trim() ?? '';
    await card.getByRole('link', { name: 'Enroll Now' }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const classUrl = page.url();
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await expect(page.getByTestId('payment-total')).toHaveText(/^\$\d/);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL('/dashboard/myEnrollClass');

    // Ask for a refund, with a reason; the card then says it waits for a decision.
    const enrolled = page.getByRole('article', { name: title });
    await enrolled.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = page.getByRole('dialog', { name: `Request a refund of “${title}”?` });
    await dialog.getByLabel('Reason').fill('The schedule no longer suits me');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(enrolled.getByText('Refund requested: waiting for a decision.')).toBeVisible();

    // The admin, in a browser of their own, approves it on the Refunds page.
    const adminContext = await browser.newContext({ baseURL: baseURL!, reducedMotion: 'reduce' });
    const admin = await adminContext.newPage();
    await logIn(admin, DEMO.admin);
    await admin.goto('/dashboard/adminHome');
    await dashboardMenu(admin).getByRole('link', { name: 'Refunds' }).click();
    await expect(admin).toHaveURL('/dashboard/refunds');
    await expectLoaded(admin);
    await expect(admin.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();
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
