import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, accessToken, newUser, signUp } from '../fixtures/app.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/**
 * Money only for live classes (decision 010): a class deleted by its teacher or an admin while it
 * sits in a student's cart is marked "This class is no longer available", left out of the total,
 * and can be removed.
 */

/** Someone signed in through the API, calling it with a Bearer token as the web app does. */
async function apiUser(baseURL: string, user: { email: string; password: string; name?: string }, isNew: boolean) {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const auth = isNew
    ? await api.post('/api/auth/sign-up/email', {
        data: {
          name: user.name,
          email: user.email,
          password: user.password,
          phone: '+1 555-0100-123',
          image: '/images/avatar-default.svg',
        },
      })
    : await api.post('/api/auth/sign-in/email', { data: { email: user.email, password: user.password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const jwt = await api.post('/api/jwt', { data: { email: user.email } });
  const { token } = (await jwt.json()) as { token: string };
  return { api, headers: { authorization: `Bearer ${token}` } };
}

async function ok(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<Record<string, unknown>> {
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

test('a class deleted while it is in the cart is marked unavailable, excluded from the total, and removable', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const catalogue = (await (await page.request.get('/api/classes?limit=2')).json()) as {
    _id: string;
    title: string;
    price: number;
  }[];
  const [gone, kept] = catalogue;
  expect(gone && kept).toBeTruthy();

  // The student puts both classes in the cart.
  const student = newUser('cart');
  await signUp(page, student);
  // Paying needs a verified address (issue 19 §2): follow the link from the mail.
  await verifyEmailViaMailbox(baseURL!, student.email);
  const token = await accessToken(page);
  const studentHeaders = { authorization: `Bearer ${token}` };
  for (const cls of [gone!, kept!]) {
    await ok(await page.request.post('/api/enrolled', { headers: studentHeaders, data: { enrollId: cls._id } }));
  }

  // Someone else has paid for `gone`, so deleting it archives it (DESIGN §4); an admin deletes it.
  const buyerUser = newUser('buyer');
  const buyer = await apiUser(baseURL!, buyerUser, true);
  await verifyEmailViaMailbox(baseURL!, buyerUser.email);
  await ok(await buyer.api.post('/api/enrolled', { headers: buyer.headers, data: { enrollId: gone!._id } }));
  const intent = await ok(await buyer.api.post('/api/create-payment-intent', { headers: buyer.headers, data: {} }));
  await ok(
    await buyer.api.post('/api/test-gateway/confirm', {
      headers: buyer.headers,
      data: {
        clientSecret: intent.clientSecret,
        cardNumber: '4242424242424242',
        expMonth: 12,
        expYear: 2034,
        cvc: '123',
      },
    }),
  );
  const admin = await apiUser(baseURL!, { email: DEMO.admin, password: DEMO_PASSWORD }, false);
  await ok(await admin.api.delete(`/api/classes/${gone!._id}`, { headers: admin.headers }));

  await page.goto('/dashboard/payment');
  await expect(page.getByRole('heading', { name: 'Your cart (2)' })).toBeVisible();
  const goneLine = page.getByRole('listitem').filter({ hasText: gone!.title });
  await expect(goneLine.getByText('This class is no longer available')).toBeVisible();
  const keptLine = page.getByRole('listitem').filter({ hasText: kept!.title });
  await expect(keptLine.getByText('This class is no longer available')).toHaveCount(0);
  const keptPrice = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(kept!.price);
  await expect(page.getByTestId('payment-total')).toHaveText(keptPrice);

  await goneLine.getByRole('button', { name: `Remove ${gone!.title} from the cart` }).click();
  await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();
  await expect(page.getByTestId('payment-total')).toHaveText(keptPrice);

  await Promise.all([buyer.api.dispose(), admin.api.dispose()]);
});
