import { test, expect, type Arrange, type ArrangedClass, type Person } from '../fixtures/arrange.ts';
import {
  dashboardMenu,
  expectNoAxeViolationsInBothThemes,
  expectNoHorizontalOverflow,
  expectReady,
} from '../fixtures/dashboard.ts';
import type { Page } from '@playwright/test';

/**
 * Payment History and its receipt: a student's payment (arranged through the API with the test
 * gateway's card that succeeds) is listed with its class, total and transaction id; its receipt
 * names seller, buyer, method, class and total, and prints alone, black on white.
 */

const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

/** A student who paid for one class of a teacher of their own; signed in on `page`. */
async function studentWithPayment(page: Page, arrange: Arrange): Promise<{ student: Person; item: ArrangedClass }> {
  const [teacher, student] = await Promise.all([arrange.teacher(), arrange.student('buyer')]);
  const item = await arrange.acceptedClass(teacher, { price: 42.5 });
  await arrange.paidEnrollment(student, [item.id]);
  await arrange.signIn(page, student);
  return { student, item };
}

function payments(page: Page) {
  return page.getByRole('list', { name: 'Payments' }).getByRole('article');
}

function receiptOf(page: Page) {
  return page.getByRole('article', { name: 'Receipt' });
}

test.describe('payment history and receipt', () => {
  test.use({ reducedMotion: 'reduce' });

  test('nothing paid yet: the history says so and leads to the classes', async ({ page, arrange }) => {
    await arrange.signIn(page, await arrange.student('buyer'));
    await page.goto('/dashboard/paymentHistory');
    await expectReady(page);
    await expect(page.getByRole('heading', { name: 'You have not made a payment yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse classes' })).toHaveAttribute('href', '/allClassAllowed');
  });

  test('the menu leads to the history: the payment with its class, total and transaction id (axe)', async ({
    page,
    arrange,
  }) => {
    const { item } = await studentWithPayment(page, arrange);
    await page.goto('/dashboard');
    await dashboardMenu(page).getByRole('link', { name: 'Payment History' }).click();
    await expect(page).toHaveURL('/dashboard/paymentHistory');
    await expectReady(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment history' })).toBeVisible();
    const payment = payments(page);
    await expect(payment).toHaveCount(1);
    await expect(payment.getByRole('list', { name: 'Classes paid' })).toContainText(item.title);
    await expect(payment.getByText(usd(item.price), { exact: true }).first()).toBeVisible();
    await expect(payment).toContainText(/Transaction id: pi_test_\S+/);
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('the receipt names seller, buyer, method, the class and the total (axe)', async ({ page, arrange }) => {
    const { student, item } = await studentWithPayment(page, arrange);
    await page.goto('/dashboard/paymentHistory');
    await payments(page).getByRole('link', { name: 'View receipt' }).click();
    await expect(page).toHaveURL(/\/dashboard\/paymentHistory\/[0-9a-f-]{36}$/);
    const receipt = receiptOf(page);
    await expect(receipt).toBeVisible();
    await expect(receipt).toContainText('SkillHive');
    await expect(receipt).toContainText(student.name);
    await expect(receipt).toContainText(student.email);
    await expect(receipt).toContainText('Visa ending in 4242 (test gateway, no real money)');
    await expect(receipt.getByRole('table', { name: 'Classes paid' })).toContainText(item.title);
    await expect(page.getByTestId('receipt-total')).toHaveText(usd(item.price));
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await expectReady(page);
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('the receipt on paper is alone, black on white; both pages fit 360 px', async ({ page, arrange }) => {
    await studentWithPayment(page, arrange);
    await page.goto('/dashboard/paymentHistory');
    await payments(page).getByRole('link', { name: 'View receipt' }).click();
    const receipt = receiptOf(page);
    await expect(receipt).toBeVisible();

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
    await expectReady(page);
    await expect(payments(page)).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
  });
});
