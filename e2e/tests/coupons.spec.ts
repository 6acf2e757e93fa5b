import { test, expect, uniqueStamp, type Arrange } from '../fixtures/arrange.ts';
import { expectNoAxeViolationsInBothThemes, expectReady } from '../fixtures/dashboard.ts';

/**
 * Coupons: an admin creates a site-wide coupon on the Coupons page; a student applies an admin's
 * coupon on the payment page and sees the discount and the new total; once paid with it (through
 * the API), the history and the receipt name the coupon and the admin's list counts the use. A
 * teacher creates a coupon for their own classes on My Coupons and disables it. The pages are
 * opened by their address: the dashboard menus' entries are dashboard-admin's and -teacher's.
 */

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** 20% off `cents`, rounded to the nearest cent as the server does. */
function discounted(cents: number) {
  const discount = Math.floor((cents * 20 + 50) / 100);
  return { discount, after: cents - discount };
}

/**
 * An arranged admin's site-wide coupon, 20% off and limited to 5 uses (made through the API: its
 * form is the first test), and a student with a class of their own teacher in the cart.
 */
async function adminCouponAndCart(arrange: Arrange) {
  const code = `E2E-${uniqueStamp().toUpperCase()}`;
  const [admin, teacher, student] = await Promise.all([arrange.admin(), arrange.teacher(), arrange.student('coupon')]);
  const created = await admin.api.post('/api/admin/coupons', {
    data: { code, kind: 'percent', value: 20, maxUses: 5 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const item = await arrange.acceptedClass(teacher, { price: 37.45 });
  await arrange.cartLine(student, item.id);
  return { code, admin, student, item };
}

test.describe('coupons', () => {
  test.use({ reducedMotion: 'reduce' });

  test('an admin creates a site-wide coupon: the shared schema refuses a short code, the row shows it', async ({
    page,
    arrange,
  }) => {
    // Two axe passes (light, dark), each also finished in a blank page: slow on a loaded machine.
    test.setTimeout(60_000);
    const code = `E2E-${uniqueStamp().toUpperCase()}`;
    await arrange.signIn(page, await arrange.admin());
    await page.goto('/dashboard/coupons');
    await expect(page.getByRole('heading', { level: 1, name: 'Coupons' })).toBeVisible();
    // The shared schema's message for a code too short, before anything is sent.
    await page.getByLabel('Code', { exact: true }).fill('ab');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    await expect(page.getByText('Use 8 to 40 letters, digits, - or _')).toBeVisible();
    // A 20% coupon limited to 5 uses.
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByLabel('Kind').selectOption('percent');
    await page.getByLabel('Percentage off').fill('20');
    await page.getByLabel('Maximum uses (optional)').fill('5');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    const row = page.getByTestId('coupon-row').filter({ hasText: code });
    await expect(row).toContainText('20% off');
    await expect(row).toContainText('0 of 5');
    await expect(row).toContainText('Active');
    await expectReady(page);
    await expectNoAxeViolationsInBothThemes(page);
  });

  test("a student applies an admin's coupon: an unknown code is refused, then the discount and the new total (axe)", async ({
    page,
    arrange,
  }) => {
    // Two axe passes (light, dark), each also finished in a blank page: slow on a loaded machine.
    test.setTimeout(60_000);
    const { code, student, item } = await adminCouponAndCart(arrange);
    await arrange.signIn(page, student);
    await page.goto('/dashboard/payment');
    await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();
    const before = Math.round(item.price * 100);
    await expect(page.getByTestId('payment-total')).toHaveText(usd(before));

    // An unknown code says so and keeps the total; the admin's code (typed in lower case) applies.
    await page.getByLabel('Coupon code').fill('NOT-A-REAL-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This coupon code does not exist' })).toBeVisible();
    await expect(page.getByTestId('payment-total')).toHaveText(usd(before));
    await page.getByLabel('Coupon code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('applied-coupon')).toHaveText(code);
    const { discount, after } = discounted(before);
    await expect(page.getByTestId('payment-total')).toHaveText(usd(after));
    await expect(page.getByTestId('coupon-discount')).toHaveText(`−${usd(discount)}`);
    await expect(page.getByTestId('coupon-discounts')).toContainText(item.title);
    // The Pay button names the discounted total, and the page says what one payment charges.
    await expect(page.getByRole('button', { name: `Pay ${usd(after)}` })).toBeEnabled();
    await expect(page.getByTestId('charge-summary')).toHaveText(
      `Paying charges your card ${usd(after)} once, for 1 class of this cart.`,
    );
    await expectNoAxeViolationsInBothThemes(page);

    // The applied coupon survives leaving the page and coming Back, and Forward again.
    await page.goto(`/classes/${item.id}`);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId('applied-coupon')).toHaveText(code);
    await expect(page.getByTestId('payment-total')).toHaveText(usd(after));
    await page.goForward();
    await page.goBack();
    await expect(page.getByTestId('applied-coupon')).toHaveText(code);
  });

  test(
    "a student pays with an admin's coupon: the history, the receipt and the admin's count show it",
    { tag: '@postgres' },
    async ({ page, browser, baseURL, arrange }) => {
      const { code, admin, student, item } = await adminCouponAndCart(arrange);
      // Paid with the code as the student typed it (paying through the form is dashboard-student's journey).
      await arrange.paidEnrollment(student, [], { couponCode: code.toLowerCase() });
      const { discount, after } = discounted(Math.round(item.price * 100));

      // The history and the receipt show the coupon and what was paid.
      await arrange.signIn(page, student);
      await page.goto('/dashboard/paymentHistory');
      await expectReady(page);
      const payment = page.getByRole('list', { name: 'Payments' }).getByRole('article');
      await expect(payment).toContainText(code);
      await payment.getByRole('link', { name: 'View receipt' }).click();
      const receipt = page.getByRole('article', { name: 'Receipt' });
      await expect(receipt).toContainText(`Coupon ${code}`);
      await expect(receipt).toContainText(`−${usd(discount)}`);
      await expect(receipt).toContainText('Visa ending in 4242');
      await expect(page.getByTestId('receipt-total')).toHaveText(usd(after));

      // The admin's list, in a browser of their own, counts the use.
      const adminContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
      try {
        const adminPage = await adminContext.newPage();
        await arrange.signIn(adminPage, admin);
        await adminPage.goto('/dashboard/coupons');
        await expect(adminPage.getByTestId('coupon-row').filter({ hasText: code })).toContainText('1 of 5');
      } finally {
        await adminContext.close();
      }
    },
  );

  test('a teacher creates a coupon for their classes and disables it', async ({ page, arrange }) => {
    // Two axe passes (light, dark), each also finished in a blank page: slow on a loaded machine.
    test.setTimeout(60_000);
    const code = `TCH-${uniqueStamp().toUpperCase()}`;
    await arrange.signIn(page, await arrange.teacher());
    await page.goto('/dashboard/myCoupons');
    await expect(page.getByRole('heading', { level: 1, name: 'My Coupons' })).toBeVisible();
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByLabel('Kind').selectOption('fixed');
    await page.getByLabel('Amount off, in cents').fill('500');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    const row = page.getByTestId('coupon-row').filter({ hasText: code });
    await expect(row).toContainText('$5.00 off');
    await expect(row).toContainText('Never');
    await expectReady(page);
    await expectNoAxeViolationsInBothThemes(page);

    // Disabling asks first, naming the code.
    await row.getByRole('button', { name: `Disable the coupon ${code}` }).click();
    const dialog = page.getByRole('dialog', { name: `Disable the coupon ${code}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: `Disable ${code}` }).click();
    await expect(row).toContainText('Disabled');
    await expect(row.getByRole('button', { name: `Disable the coupon ${code}` })).toHaveCount(0);
  });
});
