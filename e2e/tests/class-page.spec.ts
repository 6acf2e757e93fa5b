import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { accountButton, fillLogin, newUser, signUp } from '../fixtures/app.ts';
import { payWithTestCard } from '../fixtures/checkout.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/** The public class page (issue 20 §5), from a card to Enrolled. */

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe('the public class page', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a visitor opens a card, presses Pay Now, signs in, comes back, pays and is Enrolled', async ({
    browser,
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // A student account made elsewhere, with a verified address (paying needs one).
    const student = newUser('visitor');
    const other = await (await browser.newContext()).newPage();
    await signUp(other, student);
    await verifyEmailViaMailbox(baseURL!, student.email);
    await other.context().close();

    // A card of the catalogue opens the class's public page.
    await page.goto('/allClassAllowed');
    const card = page
      .getByTestId('class-grid')
      .getByRole('article')
      .filter({ has: page.getByRole('link', { name: 'Enroll Now' }) })
      .first();
    const title = (await card.getByRole('heading').textContent())?.trim() ?? '';
    await card.getByRole('link', { name: 'Enroll Now' }).click();
    await expect(page).toHaveURL(/\/classes\/[0-9a-f-]+$/);
    const classUrl = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveTitle(`${title} — SkillHive`);
    for (const heading of ['About this class', 'Ratings', 'Reviews', 'Your teacher'])
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    await expect(page.getByTestId('class-price')).toHaveText(/^Price: \$\d/);
    await expect(page.getByText(/\d+ students? enrolled/)).toBeVisible();
    await expectNoAxeViolations(page);

    // Signed out, Pay Now asks to sign in (spec §8), and "Yes, login!" comes back here.
    await page.getByRole('button', { name: 'Pay Now' }).click();
    const dialog = page.getByRole('dialog', { name: 'You are not Logged In' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Please login to add to the cart');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Yes, login!' }).click();
    await expect(page).toHaveURL('/login');
    await fillLogin(page, student.email, student.password);
    await expect(accountButton(page)).toBeVisible();
    await expect(page).toHaveURL(classUrl);

    // Signed in, Pay Now puts the class in the cart and opens the payment page.
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await expect(page.getByTestId('payment-total')).toHaveText(/^\$\d/);
    await payWithTestCard(page);

    // My Enrolled Classes: Enrolled, with the way into the class.
    const enrolled = page.locator('article').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(enrolled.getByText('Enrolled', { exact: true })).toBeVisible();
    const classId = classUrl.split('/').pop()!;
    await expect(enrolled.getByRole('link', { name: 'Open class' })).toHaveAttribute(
      'href',
      `/dashboard/myEnrollClass/${classId}`,
    );

    // The class page now says Enrolled, leads into the class and offers no Pay Now.
    await page.goto(classUrl);
    await expect(page.getByTestId('class-enrolled')).toContainText('Enrolled');
    await expect(page.getByRole('link', { name: 'Go to your class' })).toHaveAttribute(
      'href',
      `/dashboard/myEnrollClass/${classId}`,
    );
    await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test('fits a 360 px screen, and shows its reviews a page at a time', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/allClassAllowed?minRating=1&sort=popular');
    await page.getByTestId('class-grid').getByRole('link', { name: 'Enroll Now' }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Reviews' })).toBeVisible();
    await expect(
      page
        .getByRole('list')
        .filter({ hasText: /stars?/ })
        .first(),
    ).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });

  test('an unknown class offers Browse classes', async ({ page }) => {
    await page.goto('/classes/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1, name: 'Class not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Browse classes' }).click();
    await expect(page).toHaveURL('/allClassAllowed');
  });

  test('the server names the class in the HTML for shared links', async ({ request }) => {
    const [item] = (await (await request.get('/api/classes?limit=1')).json()) as { _id: string; title: string }[];
    const html = await (await request.get(`/classes/${item!._id}`)).text();
    expect(html).toContain(`<meta property="og:title" content="`);
    expect(html).toMatch(/<title>[^<]+ — SkillHive<\/title>/);
    expect(html).not.toContain('<title>SkillHive</title>');
  });
});
