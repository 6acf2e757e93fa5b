import { expect, test } from '@playwright/test';
import { DEMO, logIn } from '../fixtures/app.ts';
import {
  openAdminPage,
  openPaymentForFirstClass,
  payWithTestCard,
  signUpVerifiedStudent,
} from '../fixtures/checkout.ts';
import { expectLoaded, expectNoAxeViolations, openFromDashboardMenu } from '../fixtures/dashboard.ts';

/**
 * Issue 18 §4: an admin creates a site-wide coupon on the Coupons page; a student applies it on the
 * payment page, sees the discount and the new total, pays with the test gateway, and the receipt
 * names the coupon. A teacher creates a coupon for their own classes on My Coupons and disables it.
 */
test.describe('coupons', () => {
  test.use({ reducedMotion: 'reduce' });

  test('an admin creates a coupon, a student pays with it, the receipt shows it', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const code = `E2E-${Date.now().toString(36).toUpperCase()}`;

    // The admin, in a browser of their own, creates a 20% coupon limited to 5 uses.
    const { admin, adminContext } = await openAdminPage(browser, baseURL!, 'Coupons', '/dashboard/coupons');
    // The shared schema's message for a code too short, before anything is sent.
    await admin.getByLabel('Code', { exact: true }).fill('ab');
    await admin.getByRole('button', { name: 'Create coupon' }).click();
    await expect(admin.getByText('Use 3 to 40 letters, digits, - or _')).toBeVisible();
    await admin.getByLabel('Code', { exact: true }).fill(code);
    await admin.getByLabel('Kind').selectOption('percent');
    await admin.getByLabel('Percentage off').fill('20');
    await admin.getByLabel('Maximum uses (optional)').fill('5');
    await admin.getByRole('button', { name: 'Create coupon' }).click();
    const row = admin.getByTestId('coupon-row').filter({ hasText: code });
    await expect(row).toContainText('20% off');
    await expect(row).toContainText('0 of 5');
    await expect(row).toContainText('Active');
    await expectNoAxeViolations(admin);

    // The student puts a class in the cart and opens the payment page.
    await signUpVerifiedStudent(page, baseURL!, 'coupon');
    const { title } = await openPaymentForFirstClass(page);
    const before = (await page.getByTestId('payment-total').textContent())?.trim() ?? '';
    const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, '')) * 100);

    // An unknown code says so and keeps the total; the admin's code (typed in lower case) applies.
    await page.getByLabel('Coupon code').fill('NOT-A-REAL-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This coupon code does not exist' })).toBeVisible();
    await expect(page.getByTestId('payment-total')).toHaveText(before);
    await page.getByLabel('Coupon code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('applied-coupon')).toHaveText(code);
    const discount = Math.floor((cents(before) * 20 + 50) / 100);
    const after = cents(before) - discount;
    await expect(page.getByTestId('payment-total')).toHaveText(`$${(after / 100).toFixed(2)}`);
    await expect(page.getByTestId('coupon-discount')).toHaveText(`−$${(discount / 100).toFixed(2)}`);
    await expect(page.getByTestId('coupon-discounts')).toContainText(title);
    await expectNoAxeViolations(page);

    // Pay with the test gateway's card that succeeds: the Pay button names the discounted total.
    await payWithTestCard(page, `Pay $${(after / 100).toFixed(2)}`);

    // The history and the receipt show the coupon and what was paid.
    await page.goto('/dashboard/paymentHistory');
    await expectLoaded(page);
    const payment = page.getByRole('list', { name: 'Payments' }).getByRole('article');
    await expect(payment).toContainText(code);
    await payment.getByRole('link', { name: 'View receipt' }).click();
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await expect(receipt).toContainText(`Coupon ${code}`);
    await expect(receipt).toContainText(`−$${(discount / 100).toFixed(2)}`);
    await expect(receipt).toContainText('Visa ending in 4242');
    await expect(page.getByTestId('receipt-total')).toHaveText(`$${(after / 100).toFixed(2)}`);

    // The admin's list counts the use.
    await admin.reload();
    await expect(admin.getByTestId('coupon-row').filter({ hasText: code })).toContainText('1 of 5');
    await adminContext.close();
  });

  test('a teacher creates a coupon for their classes and disables it', async ({ page }) => {
    test.setTimeout(90_000);
    const code = `TCH-${Date.now().toString(36).toUpperCase()}`;
    await logIn(page, DEMO.teacher);
    await openFromDashboardMenu(page, '/dashboard/teacherHome', 'My Coupons', '/dashboard/myCoupons');
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByLabel('Kind').selectOption('fixed');
    await page.getByLabel('Amount off, in cents').fill('500');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    const row = page.getByTestId('coupon-row').filter({ hasText: code });
    await expect(row).toContainText('$5.00 off');
    await expect(row).toContainText('Never');
    await expectNoAxeViolations(page);

    // Disabling asks first, naming the code.
    await row.getByRole('button', { name: `Disable the coupon ${code}` }).click();
    const dialog = page.getByRole('dialog', { name: `Disable the coupon ${code}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: `Disable ${code}` }).click();
    await expect(row).toContainText('Disabled');
    await expect(row.getByRole('button', { name: `Disable the coupon ${code}` })).toHaveCount(0);
  });
});
