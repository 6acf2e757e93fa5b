import { expect, test, uniqueStamp, type Arrange, type ArrangedClass } from '../fixtures/arrange.ts';
import { accountButton, fillLogin } from '../fixtures/app.ts';
import {
  expectLoaded,
  expectNoAxeViolationsInBothThemes,
  expectNoHorizontalOverflow,
  expectReady,
} from '../fixtures/dashboard.ts';
import { ROLE_STATE, roleAccounts } from '../fixtures/roles.ts';

/**
 * The public class page, /classes/:id (spec §2, DESIGN §1.10): a card of the catalogue opens it, a
 * visitor's Pay Now asks them to sign in and brings them back, Pay Now puts the class in the cart,
 * and a paid class says Enrolled.
 */

/** An accepted class of a new teacher, with a title no seeded search term matches. */
async function classOfItsOwn(arrange: Arrange, price = 25): Promise<ArrangedClass & { word: string }> {
  const word = `classpage${uniqueStamp()}`;
  const teacher = await arrange.teacher();
  return { ...(await arrange.acceptedClass(teacher, { title: `Lettering ${word}`, price })), word };
}

test.describe('the public class page', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a visitor opens a card, presses Pay Now, signs in, comes back, pays and is Enrolled', async ({
    page,
    arrange,
  }) => {
    const [item, student] = await Promise.all([classOfItsOwn(arrange, 27), arrange.student('visitor')]);

    // A card of the catalogue opens the class's public page.
    await page.goto(`/allClassAllowed?q=${item.word}`);
    const card = page.getByTestId('class-grid').getByRole('article').filter({ hasText: item.title });
    await card.getByRole('link', { name: 'Enroll Now' }).click();
    const classUrl = `/classes/${item.id}`;
    await expect(page).toHaveURL(classUrl);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
    await expect(page).toHaveTitle(`${item.title} — SkillHive`);
    for (const heading of ['About this class', 'Ratings', 'Reviews', 'Your teacher'])
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    await expect(page.getByTestId('class-price')).toHaveText('Price: $27.00');
    await expect(page.getByText('0 students enrolled')).toBeVisible();

    // Signed out, Pay Now asks to sign in (spec §8), and "Yes, login!" comes back here.
    await page.getByRole('button', { name: 'Pay Now' }).click();
    const dialog = page.getByRole('dialog', { name: 'You are not Logged In' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Please login to add to the cart');
    await dialog.getByRole('button', { name: 'Yes, login!' }).click();
    await expect(page).toHaveURL('/login');
    await fillLogin(page, student.email, student.password);
    await expect(accountButton(page)).toBeVisible();
    await expect(page).toHaveURL(classUrl);

    // Signed in, Pay Now puts the class in the cart and opens the payment page.
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    const cart = page.getByRole('region', { name: /^Your cart/ });
    await expect(cart.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();
    await expect(cart).toContainText(item.title);
    await expect(page.getByTestId('payment-total')).toHaveText('$27.00');
    // What one payment charges, and the cart in the navbar on every page.
    await expect(page.getByTestId('charge-summary')).toHaveText(
      'Paying charges your card $27.00 once, for 1 class of this cart.',
    );
    await expect(page.getByTestId('nav-cart')).toHaveAccessibleName('Cart, 1 class');
    // A cart line is no student: the class still counts none.
    await page.goto(classUrl);
    await expect(page.getByText('This class is in your cart.')).toBeVisible();
    await expect(page.getByText('0 students enrolled')).toBeVisible();

    // The card form is tested by dashboard-student and stripe: the cart is paid through the API.
    await arrange.paidEnrollment(student, []);

    // My Enrolled Classes: Enrolled, with the way into the class.
    await page.goto('/dashboard/myEnrollClass');
    const enrolled = page.locator('article').filter({ has: page.getByRole('heading', { name: item.title }) });
    await expect(enrolled.getByText('Enrolled', { exact: true })).toBeVisible();
    await expect(enrolled.getByRole('link', { name: 'Open class' })).toHaveAttribute(
      'href',
      `/dashboard/myEnrollClass/${item.id}`,
    );

    // The class page now says Enrolled, leads into the class and offers no Pay Now.
    await page.goto(classUrl);
    await expect(page.getByTestId('class-enrolled')).toContainText('Enrolled');
    await expect(page.getByRole('link', { name: 'Go to your class' })).toHaveAttribute(
      'href',
      `/dashboard/myEnrollClass/${item.id}`,
    );
    await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
    await expect(page.getByText('1 student enrolled')).toBeVisible();
  });

  test('its teacher is offered the way to manage it, not Pay Now', async ({ page, arrange }) => {
    const teacher = await arrange.teacher();
    const item = await arrange.acceptedClass(teacher, { title: `Own lettering ${uniqueStamp()}` });
    await arrange.signIn(page, teacher);
    await page.goto(`/classes/${item.id}`);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
    await expect(page.getByTestId('class-own')).toContainText('This is your class');
    await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Manage' }).click();
    await expect(page).toHaveURL(`/dashboard/my-class/${item.id}`);
  });

  test('axe finds nothing on the page, light and dark', async ({ page, arrange }) => {
    const item = await classOfItsOwn(arrange);
    await page.goto(`/classes/${item.id}`);
    await expectReady(page);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('axe finds nothing on the sign-in dialog, light and dark', async ({ page, arrange }) => {
    const item = await classOfItsOwn(arrange);
    await page.goto(`/classes/${item.id}`);
    await expectReady(page);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page.getByRole('dialog', { name: 'You are not Logged In' })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('fits a 360 px screen, and shows its reviews a page at a time', async ({ page, arrange }) => {
    // Six reviews: five a page (CLASS_REVIEWS_PAGE_SIZE), so two pages.
    const item = await classOfItsOwn(arrange);
    await Promise.all(
      [5, 4, 5, 3, 5, 4].map(async (rating, index) => {
        const reviewer = await arrange.student(`reviewer${index}`);
        await arrange.paidEnrollment(reviewer, [item.id]);
        const saved = await reviewer.api.post('/api/reviews', {
          data: { classId: item.id, rating, details: `Review ${index + 1} of ${item.title}` },
        });
        expect(saved.status(), await saved.text()).toBe(201);
      }),
    );

    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/classes/${item.id}`);
    await expectReady(page);
    await expect(page.getByText('4.3 (6 reviews)')).toBeVisible();
    await expect(page.getByText('6 students enrolled')).toBeVisible();
    const breakdown = page
      .getByRole('list')
      .filter({ hasText: /stars?/ })
      .first();
    await expect(breakdown).toBeVisible();
    await expect(breakdown.getByRole('listitem').first()).toHaveText('5 stars3 reviews');

    const reviews = page.getByRole('region', { name: 'Reviews', exact: true });
    const pages = page.getByRole('navigation', { name: 'Review pages' });
    await expect(pages).toContainText('Page 1 of 2');
    await expect(reviews.getByRole('listitem')).toHaveCount(5);
    await pages.getByRole('button', { name: 'Older reviews' }).click();
    await expect(pages).toContainText('Page 2 of 2');
    await expect(reviews.getByRole('listitem')).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
  });

  test('its teacher replies to a review from the dashboard; the reply shows under it and a reader can report it', async ({
    page,
    browser,
    baseURL,
    arrange,
  }) => {
    const teacher = await arrange.teacher('replier');
    const item = await arrange.acceptedClass(teacher, { title: `Replied ${uniqueStamp()}` });
    const [reviewer, reader] = await Promise.all([arrange.student('reviewer'), arrange.student('reader')]);
    await arrange.paidEnrollment(reviewer, [item.id]);
    const saved = await reviewer.api.post('/api/reviews', {
      data: { classId: item.id, rating: 2, details: 'Too fast for beginners.' },
    });
    expect(saved.status(), await saved.text()).toBe(201);

    await arrange.signIn(page, teacher);
    await page.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(page);
    const replies = page.getByRole('region', { name: /^Reviews/ });
    await replies.getByLabel(`Your reply to ${reviewer.name}`).fill('<b>Thanks</b> — slower from next week.');
    await replies.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect(page.getByText('Your reply is shown under the review.')).toBeVisible();
    await expect(replies.getByText('Reply from the teacher')).toBeVisible();

    const readerContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
    try {
      const readerPage = await readerContext.newPage();
      await arrange.signIn(readerPage, reader);
      await readerPage.goto(`/classes/${item.id}`);
      await expectReady(readerPage);
      const review = readerPage
        .getByRole('region', { name: 'Reviews', exact: true })
        .getByRole('listitem')
        .filter({ hasText: 'Too fast for beginners.' });
      await expect(review).toContainText('Reply from the teacher');
      // Typed markup is shown as text, never as markup.
      await expect(review.getByText('<b>Thanks</b> — slower from next week.')).toBeVisible();
      await review.getByRole('button', { name: 'Report the teacher’s reply' }).click();
      const dialog = readerPage.getByRole('dialog', { name: 'Report the teacher’s reply' });
      await dialog.getByLabel('Reason').selectOption({ label: 'Harassment or abuse' });
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog).toBeHidden();
      await expect(readerPage.getByText('Thank you: an admin will look at your report')).toBeVisible();
    } finally {
      await readerContext.close();
    }
  });

  test('an unknown class offers Browse classes', async ({ page }) => {
    await page.goto('/classes/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1, name: 'Class not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Browse classes' }).click();
    await expect(page).toHaveURL('/allClassAllowed');
  });

  test('the server names the class in the HTML for shared links', async ({ request, arrange }) => {
    const item = await classOfItsOwn(arrange);
    const html = await (await request.get(`/classes/${item.id}`)).text();
    expect(html).toContain(`<meta property="og:title" content="${item.title}`);
    expect(html).toContain(`<title>${item.title} — SkillHive</title>`);
    expect(html).not.toContain('<title>SkillHive</title>');
  });
});

test.describe('the public class page of a paid class', () => {
  test.use({ reducedMotion: 'reduce', storageState: ROLE_STATE.student });

  test('says Enrolled and leads into the class; axe finds nothing, light and dark', async ({ page }) => {
    // The role student paid for the role teacher's accepted class (setup/roles.setup.ts).
    const { acceptedClass } = roleAccounts().teacher;
    await page.goto(`/classes/${acceptedClass.id}`);
    await expect(page.getByTestId('class-enrolled')).toContainText('Enrolled');
    await expect(page.getByRole('link', { name: 'Go to your class' })).toHaveAttribute(
      'href',
      `/dashboard/myEnrollClass/${acceptedClass.id}`,
    );
    await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
    await expectReady(page);
    await expectNoAxeViolationsInBothThemes(page);
  });
});
