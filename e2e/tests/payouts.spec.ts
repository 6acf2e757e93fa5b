import type { Page } from '@playwright/test';
import { expect, type Arrange, type Person } from '../fixtures/arrange.ts';
import {
  expectNoAxeViolations,
  expectNoAxeViolationsInBothThemes,
  expectNoHorizontalOverflow,
  expectReady,
} from '../fixtures/dashboard.ts';
import { test as arrangeTest } from '../fixtures/arrange.ts';
import { withStripeApp, type StripeApp } from '../fixtures/stripe.ts';

/**
 * Money out (decisions 039, 040) on a server configured for Stripe against the local fakes
 * (fixtures/stripe.ts, apps/server/test/fake-stripe-connect.ts): a teacher connects a payout
 * account through Stripe's (fake) hosted onboarding, a student pays, the refund window passes,
 * the payout is a Stripe transfer the teacher sees paid; a refund after that payout leaves a
 * negative balance that the next payout recovers first; a student's bank disputes a payment and
 * the admin sees the dispute and its outcome. Axe on both pages, light and dark, 360 and 1280 px.
 *
 * "Time passes": the server cannot be given a clock from outside (test-only code never lives in
 * src/), so this server's refund window is zero days — a share is released at the money-out job's
 * next tick (PAYOUT_JOB_INTERVAL_SECONDS=1) instead of two weeks later. The release on the
 * injected clock itself is the server suites' (apps/server/test).
 */
const PAYOUT_SERVER_ENV = {
  REFUND_WINDOW_DAYS: '0',
  PAYOUT_JOB_INTERVAL_SECONDS: '1',
  PAYOUT_MINIMUM_CENTS: '100',
  PLATFORM_FEE_PERCENT: '20',
};

const test = arrangeTest.extend<{ baseURL: string }, { payoutsApp: StripeApp }>({
  payoutsApp: [
    // Playwright reads a fixture's dependencies from this pattern: none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => withStripeApp(PAYOUT_SERVER_ENV, use),
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ payoutsApp }, use) => {
    await use(payoutsApp.baseURL);
  },
});

// Axe over long pages in two themes, and a journey through several payouts: slow on a loaded machine.
test.describe.configure({ timeout: 120_000 });
test.use({ reducedMotion: 'reduce' });

/** The student pays their cart through Stripe (the intent confirmed as Stripe.js leaves it); returns the intent. */
async function payWithStripe(app: StripeApp, arrange: Arrange, student: Person, classIds: string[]) {
  for (const id of classIds) await arrange.cartLine(student, id);
  const created = await student.api.post('/api/create-payment-intent', { data: {} });
  expect(created.ok(), await created.text()).toBe(true);
  const { clientSecret, cartIds } = (await created.json()) as { clientSecret: string; cartIds: string[] };
  const intentId = clientSecret.split('_secret_')[0]!;
  const intent = app.fake.setStatus(intentId, 'succeeded');
  const paid = await student.api.post('/api/payments', { data: { transactionId: intentId, cartIds } });
  expect(paid.ok(), await paid.text()).toBe(true);
  const { paymentResult } = (await paid.json()) as { paymentResult: { insertedId: string } };
  return { intent, paymentId: paymentResult.insertedId };
}

/** What an admin's "Run payouts now" does, through the API (the button is driven once, below). */
async function runPayouts(admin: Person) {
  const run = await admin.api.post('/api/admin/payouts/run');
  expect(run.ok(), await run.text()).toBe(true);
}

/** The teacher's balance cards, by label. */
function balance(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'Balance' })
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) });
}

/** The teacher's payouts table rows. */
function payoutRows(page: Page) {
  return page.getByRole('region', { name: 'Payouts, newest first' }).getByRole('row');
}

/** Reloads the Earnings page until `check` passes: the job and webhooks move money in the background. */
async function expectOnEarnings(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto('/dashboard/earnings');
    await expectReady(page);
    await check();
  }).toPass({ timeout: 30_000 });
}

test('a teacher onboards through Stripe’s page, is paid by transfer, and a refund after payout is recovered from the next one', async ({
  page,
  arrange,
  payoutsApp,
}) => {
  const teacher = await arrange.teacher('payee');
  const cheap = await arrange.acceptedClass(teacher, { price: 30 });
  const dear = await arrange.acceptedClass(teacher, { price: 50 });
  const admin = await arrange.admin('payouts');

  // Not connected yet: the page offers the onboarding, with nothing earned.
  await arrange.signIn(page, teacher);
  await page.goto('/dashboard/earnings');
  await expectReady(page);
  const account = page.getByRole('region', { name: 'Payout account' });
  await expect(account.getByText('Not connected')).toBeVisible();
  await expect(page.getByText('No paid classes yet.')).toBeVisible();

  // Stripe's hosted onboarding (the fake's page, on Stripe's origin), then back to SkillHive.
  await account.getByRole('button', { name: 'Connect payout account' }).click();
  await expect(page).toHaveURL(new RegExp(`^${payoutsApp.fake.url}/fake/connect/onboarding/acct_`));
  await page.getByLabel('Account holder').fill(teacher.name);
  await page.getByRole('button', { name: 'Agree and submit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/earnings\?connect=return$/);
  await expect(account.getByText('Payouts enabled')).toBeVisible();
  const [connected] = [...payoutsApp.fake.connect.accounts.values()].filter((a) => a.email === teacher.email);
  expect(connected?.payouts_enabled).toBe(true);

  // A student pays $30: 20% fee, $24 share, released once the (zero-day) refund window has passed.
  const student = await arrange.student('payer');
  const first = await payWithStripe(payoutsApp, arrange, student, [cheap.id]);
  await expectOnEarnings(page, async () => {
    const sale = page
      .getByRole('region', { name: 'Sales, newest first' })
      .getByRole('row', { name: new RegExp(cheap.title) });
    await expect(sale).toContainText('$30.00');
    await expect(sale).toContainText('$6.00');
    await expect(sale).toContainText('$24.00');
    // The student by initials only: never their name or e-mail.
    await expect(page.getByText(student.email)).toHaveCount(0);
    await expect(page.getByText(student.name)).toHaveCount(0);
  });

  // The payout runs: one Stripe transfer to the connected account, tied to the charge.
  await expect(async () => {
    await runPayouts(admin);
    expect([...payoutsApp.fake.connect.transfers.values()].filter((t) => t.destination === connected!.id)).toHaveLength(
      1,
    );
  }).toPass({ timeout: 30_000 });
  const [transfer] = [...payoutsApp.fake.connect.transfers.values()].filter((t) => t.destination === connected!.id);
  expect(transfer).toMatchObject({ amount: 2400, source_transaction: first.intent.latest_charge });
  await expectOnEarnings(page, async () => {
    await expect(payoutRows(page).filter({ hasText: '$24.00' })).toContainText('Paid');
    await expect(balance(page, 'Paid out')).toContainText('$24.00');
  });

  // The admin refunds that payment after the payout: the teacher owes the $24 share back.
  const refund = await admin.api.post(`/api/admin/payments/${first.paymentId}/refunds`, {
    data: { reason: 'The student could not attend' },
  });
  expect(refund.ok(), await refund.text()).toBe(true);
  await expectOnEarnings(page, async () => {
    await expect(page.getByText('Negative balance: −$24.00.')).toBeVisible();
  });

  // Another sale ($50 → $40 share); the next payout recovers the $24 first and sends $16.
  const second = await arrange.student('payer-two');
  await payWithStripe(payoutsApp, arrange, second, [dear.id]);
  await expect(async () => {
    await runPayouts(admin);
    expect([...payoutsApp.fake.connect.transfers.values()].filter((t) => t.destination === connected!.id)).toHaveLength(
      2,
    );
  }).toPass({ timeout: 30_000 });
  expect(
    [...payoutsApp.fake.connect.transfers.values()].filter((t) => t.destination === connected!.id).map((t) => t.amount),
  ).toEqual([2400, 1600]);
  await expectOnEarnings(page, async () => {
    await expect(page.getByText(/^Negative balance/)).toHaveCount(0);
    await expect(payoutRows(page).filter({ hasText: '$16.00' })).toContainText('after recovering $24.00');
    await expect(balance(page, 'Paid out')).toContainText('$40.00');
  });
});

test('an admin sees a student’s dispute with its deadline, then its outcome', async ({ page, arrange, payoutsApp }) => {
  const teacher = await arrange.teacher('disputed');
  const cls = await arrange.acceptedClass(teacher, { price: 45 });
  const student = await arrange.student('chargeback');
  const { intent } = await payWithStripe(payoutsApp, arrange, student, [cls.id]);
  const admin = await arrange.admin('disputes');

  const dispute = await payoutsApp.fake.connect.raiseDispute(intent);
  await arrange.signIn(page, admin);
  const disputes = page.getByRole('region', { name: 'Disputes, newest first' });
  const row = disputes.getByRole('row', { name: new RegExp(intent.id) });
  await expect(async () => {
    await page.goto('/dashboard/payouts');
    await expectReady(page);
    await expect(row).toContainText('Open');
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText(cls.title);
  await expect(row).toContainText('$45.00');
  const due = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' }).format(
    new Date(dispute.evidence_details.due_by! * 1000),
  );
  await expect(row).toContainText(due);

  // The bank decides for the student: the line is refunded and the outcome shown.
  await payoutsApp.fake.connect.closeDispute(dispute.id, 'lost');
  await expect(async () => {
    await page.reload();
    await expectReady(page);
    await expect(row).toContainText('Lost');
  }).toPass({ timeout: 30_000 });
});

for (const screen of ['earnings', 'payouts'] as const) {
  test(`the ${screen} page has no axe violations, light and dark, fits its tables at 1024 px and 360 px`, async ({
    page,
    arrange,
    payoutsApp,
  }) => {
    const teacher = await arrange.teacher('a11y-payee');
    const cls = await arrange.acceptedClass(teacher, { price: 25 });
    await payWithStripe(payoutsApp, arrange, await arrange.student('a11y-payer'), [cls.id]);
    // A row in each of the admin's tables that has one: an open dispute.
    if (screen === 'payouts') {
      const intent = [...payoutsApp.fake.intents.values()].find((i) => i.status === 'succeeded' && i.amount === 2500);
      await payoutsApp.fake.connect.raiseDispute(intent!);
    }
    await arrange.signIn(page, screen === 'earnings' ? teacher : await arrange.admin('a11y-payouts'));
    await page.goto(`/dashboard/${screen}`);
    await expectReady(page);
    await expectNoAxeViolationsInBothThemes(page);
    // From 1024 px the tables fit beside the menu: none scrolls sideways.
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('main [role="region"]')]
            .filter((region) => region.scrollWidth > region.clientWidth + 1)
            .map((region) => region.getAttribute('aria-label')),
        ),
      )
      .toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });
}

test('an admin runs payouts from the page after a confirmation', async ({ page, arrange }) => {
  const admin = await arrange.admin('runner');
  await arrange.signIn(page, admin);
  await page.goto('/dashboard/payouts');
  await expectReady(page);
  await page.getByRole('button', { name: 'Run payouts now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run payouts now?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Run payouts now' }).click();
  await dialog.getByRole('button', { name: 'Run payouts' }).click();
  await expect(page.getByText(/^Payouts run: \d+ sent/)).toBeVisible();
});
