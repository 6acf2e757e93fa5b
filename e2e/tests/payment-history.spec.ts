import { expect, test } from '@playwright/test';
import { openPaymentForFirstClass, payWithTestCard, signUpVerifiedStudent } from '../fixtures/checkout.ts';
import {
  dashboardMenu,
  expectLoaded,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
} from '../fixtures/dashboard.ts';

/**
 * Issue 18 §5: a student pays with the test gateway, finds the payment in their history, opens
 * its receipt and prints it (only the receipt, black on white).
 */
test.describe('payment history and receipt', () => {
  test.use({ reducedMotion: 'reduce' });

  test('pay, see the payment, open and print its receipt', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const student = await signUpVerifiedStudent(page, baseURL!, 'buyer');

    // Nothing paid yet: the history says so and leads to the classes.
    await page.goto('/dashboard/paymentHistory');
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: 'You have not made a payment yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse classes' })).toHaveAttribute('href', '/allClassAllowed');

    // Pay for the first class of the catalogue with the test gateway's card that succeeds.
    const { title } = await openPaymentForFirstClass(page);
    const total = (await page.getByTestId('payment-total').textContent())?.trim() ?? '';
    await payWithTestCard(page);
    const toast = page.getByText('Payment successful! Enjoy your classes.');
    await expect(toast).toBeVisible();

    // The menu leads to the history, which shows the payment: its class, total and transaction id.
    await dashboardMenu(page).getByRole('link', { name: 'Payment History' }).click();
    await expect(page).toHaveURL('/dashboard/paymentHistory');
    await expectLoaded(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment history' })).toBeVisible();
    const payment = page.getByRole('list', { name: 'Payments' }).getByRole('article');
    await expect(payment).toHaveCount(1);
    await expect(payment.getByRole('list', { name: 'Classes paid' })).toContainText(title);
    await expect(payment.getByText(total, { exact: true }).first()).toBeVisible();
    await expect(payment).toContainText(/Transaction id: pi_test_\S+/);
    // axe sees the page once the payment's toast has gone (a fading toast has no contrast yet).
    await expect(toast).toHaveCount(0, { timeout: 15_000 });
    await expectNoAxeViolations(page);

    // The receipt: seller, buyer, method, the class and the total.
    await payment.getByRole('link', { name: 'View receipt' }).click();
    await expect(page).toHaveURL(/\/dashboard\/paymentHistory\/[0-9a-f-]{36}$/);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await expect(receipt).toBeVisible();
    await expect(receipt).toContainText('SkillHive');
    await expect(receipt).toContainText(student.name);
    await expect(receipt).toContainText(student.email);
    await expect(receipt).toContainText('Visa ending in 4242 (test gateway, no real money)');
    await expect(receipt.getByRole('table', { name: 'Classes paid' })).toContainText(title);
    await expect(page.getByTestId('receipt-total')).toHaveText(total);
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await expectNoAxeViolations(page);

    // On paper: no navbar, menu, footer or buttons; the receipt alone, black on white, full width.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(dashboardMenu(page)).toBeHidden();
    await expect(page.getByRole('contentinfo')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(receipt).toBeVisible();
    const colours = await receipt.evaluate((element) => {
      const style = getComputedStyle(element);
      const heading = getComputedStyle(element.querySelector('h1')!);
      return { color: heading.color, background: style.backgroundColor, width: element.getBoundingClientRect().width };
    });
    expect(colours.color).toBe('rgb(0, 0, 0)');
    expect(colours.background).toBe('rgb(255, 255, 255)');
    expect(colours.width).toBeGreaterThan(600);
    await page.emulateMedia({ media: 'screen' });
    await expect(page.getByRole('banner')).toBeVisible();

    // At 360 px both pages fit the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    await expect(receipt).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.goto('/dashboard/paymentHistory');
    await expectLoaded(page);
    await expect(payment).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
  });
});
