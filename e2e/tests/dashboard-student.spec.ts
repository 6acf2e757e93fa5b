import { expect, test, type Page } from '@playwright/test';
import { newUser, signUp } from '../fixtures/app.ts';
import { dashboardMenu, expectLoaded } from '../fixtures/dashboard.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/**
 * Opens the n-th class of /allClassAllowed in the dashboard's classDetails (spec §2) and returns
 * its title. The card itself links to the public class page (/classes/:id, issue 20 §5).
 */
async function openClassFromCatalogue(page: Page, index: number): Promise<string> {
  await page.goto('/allClassAllowed');
  const card = page
    .locator('article')
    .filter({ has: page.getByRole('link', { name: 'Enroll Now' }) })
    .nth(index);
  const title = (await card.getByRole('heading').first().textContent())?.trim() ?? '';
  const href = (await card.getByRole('link', { name: 'Enroll Now' }).getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/classes\/[^/]+$/);
  await page.goto(href.replace('/classes/', '/dashboard/classDetails/'));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  return title;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

test.describe('student dashboard journey', () => {
  test('home, class details, cart, 3-D Secure payment, enrolled classes, review and profile', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const student = newUser('student');
    await signUp(page, student);
    // Paying needs a verified address (issue 19 §2): follow the link from the mail.
    await verifyEmailViaMailbox(baseURL!, student.email);

    // studentHome: the greeting with the display name; nothing enrolled yet.
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/studentHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hi, Welcome ${student.name}`);
    await expect(page.getByText('You have not enrolled in a class yet')).toBeVisible();
    const menu = dashboardMenu(page);
    await expect(menu.getByRole('link')).toHaveText([
      'Student Home',
      'My Enrolled Classes',
      'Payment History',
      'Profile',
      'Home',
      'Classes Menu',
      'Contact',
    ]);

    // classDetails: image, title, teacher name and e-mail, description, price, rating; Pay Now.
    const first = await openClassFromCatalogue(page, 0);
    await expect(page.getByRole('img', { name: `Image of ${first}` })).toBeVisible();
    for (const label of ['Teacher', 'Email', 'Price', 'Rating'])
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();

    // The cart can be corrected: remove the class, then choose two.
    await page.getByRole('button', { name: `Remove ${first} from the cart` }).click();
    await expect(page.getByText('Your cart is empty.')).toBeVisible();
    await openClassFromCatalogue(page, 0);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    const second = await openClassFromCatalogue(page, 1);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page.getByRole('heading', { name: 'Your cart (2)' })).toBeVisible();

    // The total is the server's; Pay waits for the client secret.
    const pay = page.getByRole('button', { name: /^Pay \$/ });
    await expect(pay).toBeEnabled();
    await expect(page.getByTestId('payment-total')).toHaveText(/^\$\d/);

    // Client-side checks first.
    await fillCard(page, '4242 4242 4242 4241');
    await pay.click();
    await expect(page.getByText('Enter a valid card number')).toBeVisible();

    // 4000 0025 0000 3155 asks for authentication: failing it shows the gateway's error.
    await fillCard(page, '4000 0025 0000 3155');
    await pay.click();
    await expect(page.getByRole('heading', { name: 'Your bank asks you to confirm this payment' })).toBeVisible();
    await page.getByRole('button', { name: 'Fail' }).click();
    await expect(page.getByTestId('payment-error')).toContainText(/unable to authenticate/i);
    await expect(page.getByTestId('payment-error')).toHaveClass(/text-error/);

    // Approving it pays for both classes.
    await fillCard(page, '4000 0025 0000 3155');
    await pay.click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL('/dashboard/myEnrollClass');
    await expect(page.getByText('Payment successful! Enjoy your classes.')).toBeVisible();

    // myEnrollClass: the total and the cards, both paid, each with a review form.
    await expect(page.getByTestId('enrolled-total')).toHaveText('Total enrolled: 2');
    for (const title of [first, second]) {
      const card = page.locator('article').filter({ has: page.getByRole('heading', { name: title }) });
      await expect(card.getByText('Paid', { exact: true })).toBeVisible();
      await expect(card.getByRole('link', { name: 'Buy Now' })).toHaveCount(0);
    }
    // The review form opens on demand (issue 20 §6), focused on its stars.
    await page.getByRole('button', { name: `Write a review of ${first}` }).click();
    const review = page.getByRole('form', { name: `Review ${first}` });
    await expect(review.getByRole('radio', { name: '1 star' })).toBeFocused();
    await review.getByRole('button', { name: 'Submit review' }).click();
    await expect(review.getByText('Rating is required')).toBeVisible();
    await review.getByRole('radio', { name: '4 stars' }).check();
    await review.getByLabel('Your review').fill('Practical and well paced.');
    await review.getByRole('button', { name: 'Submit review' }).click();
    await expect(page.getByText('Thank you for your review!')).toBeVisible();

    // A pending enrolment shows Buy Now, which leads to the payment page.
    await openClassFromCatalogue(page, 2);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await page.goto('/dashboard/myEnrollClass');
    await expect(page.getByTestId('enrolled-total')).toHaveText('Total enrolled: 3');
    await page.getByRole('link', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();

    // studentHome lists the classes at a glance.
    await dashboardMenu(page).getByRole('link', { name: 'Student Home' }).click();
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: 'Your classes' })).toBeVisible();
    await expect(page.getByText(first)).toBeVisible();

    // profile: image, name, role, email, phone.
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL('/dashboard/profile');
    await expectLoaded(page);
    await expect(page.getByRole('img', { name: `Photo of ${student.name}` })).toBeVisible();
    const profile = page.locator('dl');
    await expect(profile).toContainText(student.name);
    await expect(profile).toContainText('Student');
    await expect(profile).toContainText(student.email);
    await expect(profile).toContainText(student.phone);

    // The menu's contact entry.
    await dashboardMenu(page).getByRole('link', { name: 'Contact' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  });
});
