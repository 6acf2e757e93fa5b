import type { APIRequestContext, Page } from '@playwright/test';
import { test as testGatewayTest, arrangeFor, expect, type ArrangedClass, type Arrange } from '../fixtures/arrange.ts';
import { expectNoAxeViolationsInBothThemes, expectNoHorizontalOverflow, expectReady } from '../fixtures/dashboard.ts';
import { test as stripeTest } from '../fixtures/stripe.ts';

/**
 * Paying with Stripe (decision 017) on a server configured for Stripe against the local fakes
 * (fixtures/stripe.ts): Stripe's Payment Element in its frame (axe, 360 px), success, a decline
 * then success, 3-D Secure completed and failed, a page closed right after confirming (the webhook
 * fulfils), and the return from a redirect; and which code each gateway downloads. The people and
 * classes are arranged through the API of the server under test; paying stays in the browser.
 */

/**
 * Two accepted classes of a teacher arranged once per worker on that worker's Stripe server: the
 * tests only put them in their own students' carts, so they share them.
 */
const test = stripeTest.extend<object, { stripeClasses: [ArrangedClass, ArrangedClass] }>({
  stripeClasses: [
    async ({ stripeApp }, use) => {
      const sessions: APIRequestContext[] = [];
      const arrange = arrangeFor(stripeApp.baseURL, (api) => sessions.push(api));
      const teacher = await arrange.teacher('stripe-teacher');
      const classes: [ArrangedClass, ArrangedClass] = [
        await arrange.acceptedClass(teacher, { price: 25 }),
        await arrange.acceptedClass(teacher, { price: 35 }),
      ];
      await use(classes);
      await Promise.all(sessions.map((api) => api.dispose()));
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

/**
 * A new, verified student, signed in on `page`, with `classes` in the cart (enrolled through the
 * API), on /dashboard/payment; `requests` records every URL the page asks for from its first load.
 */
async function studentWithCart(page: Page, arrange: Arrange, classes: ArrangedClass[]) {
  const student = await arrange.student('stripe');
  for (const cls of classes) await arrange.cartLine(student, cls.id);
  await arrange.signIn(page, student);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/dashboard/payment');
  await expect(page.getByRole('heading', { name: `Your cart (${classes.length})` })).toBeVisible();
  const total = classes.reduce((sum, cls) => sum + Math.round(cls.price * 100), 0) / 100;
  await expect(page.getByTestId('payment-total')).toHaveText(usd(total));
  return { student, requests, total };
}

/** Stripe's card fields, in the Payment Element's frame. */
async function fillStripeCard(page: Page, number: string) {
  const frame = page.frameLocator('iframe[title="Secure payment input frame"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill('12 / 34');
  await frame.getByLabel('Security code').fill('123');
}

function payButton(page: Page) {
  return page.getByRole('button', { name: /^Pay \$/ });
}

async function expectPaid(page: Page, titles: string[]) {
  await expect(page).toHaveURL('/dashboard/myEnrollClass');
  for (const title of titles) {
    const card = page.locator('article').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(card.getByText('Paid', { exact: true })).toBeVisible();
  }
}

test.describe('paying with Stripe', () => {
  test('the payment page with Stripe’s form is accessible in both themes and fits 360 px', async ({
    page,
    arrange,
    stripeClasses,
  }) => {
    // Two axe passes (light, dark), each also finished in a blank page: slow on a loaded machine.
    test.setTimeout(60_000);
    await studentWithCart(page, arrange, [stripeClasses[0]]);
    await expect(
      page.frameLocator('iframe[title="Secure payment input frame"]').getByLabel('Card number'),
    ).toBeVisible();
    await expect(payButton(page)).toBeEnabled();
    await expectReady(page);
    await expectNoAxeViolationsInBothThemes(page);
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalOverflow(page);
  });

  test('a card that succeeds: Stripe.js from the configured address, no test card form, enrolled and paid', async ({
    page,
    arrange,
    stripeApp,
    stripeClasses,
  }) => {
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    const { requests } = await studentWithCart(page, arrange, stripeClasses);
    const pay = payButton(page);
    await expect(pay).toBeEnabled();
    await fillStripeCard(page, '4242 4242 4242 4242');
    await pay.click();
    await expect(page.getByText('Payment successful! Enjoy your classes.')).toBeVisible();
    await expectPaid(
      page,
      stripeClasses.map((cls) => cls.title),
    );

    // Stripe's code came from STRIPE_JS_URL; the test gateway's card form was never downloaded.
    expect(requests).toContain(stripeApp.stripeJsUrl);
    expect(requests.filter((url) => /\/assets\/stripe-panel-[\w-]+\.js$/.test(url))).toHaveLength(1);
    expect(requests.filter((url) => /test-gateway-panel|card-form/.test(url))).toEqual([]);
    // The CSP lets Stripe.js, its frame and its API calls through (and nothing was blocked).
    expect(blocked).toEqual([]);
    // The webhook came too, and changed nothing (recorded once).
    await expect
      .poll(() => stripeApp.fake.webhookDeliveries.filter((d) => d.type === 'payment_intent.succeeded').length)
      .toBeGreaterThan(0);
  });

  test('a declined card shows Stripe’s message, and another card then pays', async ({
    page,
    arrange,
    stripeClasses,
  }) => {
    await studentWithCart(page, arrange, [stripeClasses[0]]);
    await fillStripeCard(page, '4000 0000 0000 0002');
    await payButton(page).click();
    await expect(page.getByTestId('payment-error')).toHaveText('Your card was declined.');
    await expect(page).toHaveURL('/dashboard/payment');

    await fillStripeCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await expectPaid(page, [stripeClasses[0].title]);
  });

  test('3-D Secure: a failed challenge says so and leaves the cart to pay; a completed one pays', async ({
    page,
    arrange,
    stripeClasses,
  }) => {
    await studentWithCart(page, arrange, [stripeClasses[0]]);
    const challenge = page.frameLocator('iframe[title="3D Secure authentication"]');

    await fillStripeCard(page, '4000 0025 0000 3155');
    await payButton(page).click();
    await challenge.getByRole('button', { name: 'Fail' }).click();
    await expect(page.getByTestId('payment-error')).toContainText('unable to authenticate your payment method');
    await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();

    await fillStripeCard(page, '4000 0025 0000 3155');
    await payButton(page).click();
    await challenge.getByRole('button', { name: 'Complete' }).click();
    await expectPaid(page, [stripeClasses[0].title]);
  });

  test('closing the page right after confirming: the webhook records the payment', async ({
    page,
    context,
    arrange,
    stripeApp,
    stripeClasses,
  }) => {
    await studentWithCart(page, arrange, [stripeClasses[0]]);
    // The browser never gets to record the payment: it is closed the moment Stripe has charged.
    await page.route('**/api/payments', (route) => route.abort());
    const delivered = stripeApp.fake.webhookDeliveries.length;
    await fillStripeCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await expect.poll(() => stripeApp.fake.webhookDeliveries.length).toBeGreaterThan(delivered);
    await page.close();
    await expect.poll(() => stripeApp.fake.webhookDeliveries.at(-1)?.status).toBe(200);

    const later = await context.newPage();
    await later.goto('/dashboard/myEnrollClass');
    const card = later.locator('article').filter({ has: later.getByRole('heading', { name: stripeClasses[0].title }) });
    await expect(card.getByText('Paid', { exact: true })).toBeVisible();
  });

  test('back from a redirect (return_url) before the webhook: the page records the payment', async ({
    page,
    arrange,
    stripeApp,
    stripeClasses,
  }) => {
    const { student } = await studentWithCart(page, arrange, [stripeClasses[0]]);
    // The page's intent for this cart; a redirect-based method settles it at Stripe's end while
    // the webhook is late, then Stripe sends the student back with its parameters.
    const created = await student.api.post('/api/create-payment-intent', { data: {} });
    expect(created.ok(), await created.text()).toBe(true);
    const intent = (await created.json()) as { clientSecret: string };
    const intentId = intent.clientSecret.split('_secret_')[0]!;
    stripeApp.fake.holdWebhooks = true;
    try {
      stripeApp.fake.setStatus(intentId, 'succeeded');
      const query = new URLSearchParams({
        payment_intent: intentId,
        payment_intent_client_secret: intent.clientSecret,
        redirect_status: 'succeeded',
      });
      const recorded = page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/api/payments'),
      );
      await page.goto(`/dashboard/payment?${query}`);
      expect((await (await recorded).response())?.status()).toBe(201);
      await expectPaid(page, [stripeClasses[0].title]);
      expect(stripeApp.fake.webhookDeliveries.filter((d) => d.intentId === intentId)).toEqual([]);
    } finally {
      stripeApp.fake.holdWebhooks = false;
      await stripeApp.fake.releaseWebhooks();
    }
  });
});

testGatewayTest('the test gateway’s payment page downloads no Stripe code', async ({ page, arrange, baseURL }) => {
  const [teacher, student] = await Promise.all([arrange.teacher(), arrange.student('testgw')]);
  const cls = await arrange.acceptedClass(teacher);
  await arrange.cartLine(student, cls.id);
  await arrange.signIn(page, student);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/dashboard/payment');
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled();
  expect(requests.filter((url) => /test-gateway-panel/.test(url))).toHaveLength(1);
  expect(requests.filter((url) => /stripe/i.test(url))).toEqual([]);
  expect(requests.filter((url) => !url.startsWith(baseURL!))).toEqual([]);
});
