import { test, expect, type Arrange, type ArrangedClass, type Person } from '../fixtures/arrange.ts';
import { logIn } from '../fixtures/app.ts';
import { dashboardMenu, expectLoaded, expectReady } from '../fixtures/dashboard.ts';
import type { Page } from '@playwright/test';

/**
 * The student's dashboard (spec §2, §4 payment flow): home and menu, class details, the cart, the
 * payment form of the test gateway (client-side card errors, 3-D Secure failed then approved, two
 * classes in one payment), enrolled classes with their review form, a pending enrollment's Buy Now,
 * and the profile. This is the student journey that pays through the form; the other specs arrange
 * their purchases through the API.
 */

/** An approved teacher with `count` accepted classes of their own (uniquely titled by arrange). */
async function teacherWithClasses(arrange: Arrange, count: number) {
  const teacher = await arrange.teacher('teacher');
  const classes: ArrangedClass[] = [];
  for (let i = 0; i < count; i++) classes.push(await arrange.acceptedClass(teacher, { price: 20 + i * 5 }));
  return { teacher, classes };
}

/** Opens the class in the dashboard's classDetails (spec §2), by its id. */
async function openClassDetails(page: Page, item: ArrangedClass) {
  await page.goto(`/dashboard/classDetails/${item.id}`);
  await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
}

/** classDetails → Pay Now: the class is in the cart and the payment page opens. */
async function addToCart(page: Page, item: ArrangedClass) {
  await openClassDetails(page, item);
  await page.getByRole('button', { name: 'Pay Now' }).click();
  await expect(page).toHaveURL('/dashboard/payment');
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

function enrolledCard(page: Page, title: string) {
  return page.locator('article').filter({ has: page.getByRole('heading', { name: title }) });
}

const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

test.describe('student dashboard journey', () => {
  test('home before any class, the menu, the profile and the contact entry', async ({ page, arrange }) => {
    const student: Person = await arrange.student();
    await arrange.signIn(page, student);

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
      'Messages',
      'Notifications',
      'Profile',
      'Home',
      'Classes Menu',
      'Contact',
    ]);

    // profile: image, name, role, email, phone.
    await menu.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL('/dashboard/profile');
    await expectLoaded(page);
    await expect(page.getByRole('img', { name: `Photo of ${student.name}` })).toBeVisible();
    const profile = page.locator('dl');
    await expect(profile).toContainText(student.name);
    await expect(profile).toContainText('Student');
    await expect(profile).toContainText(student.email);
    await expect(profile).toContainText(student.phone);

    // The menu's contact entry.
    await menu.getByRole('link', { name: 'Contact' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  });

  test(
    'class details, cart, card errors, 3-D Secure failed then approved, two classes paid, review',
    { tag: '@postgres' },
    async ({ page, arrange }) => {
      const [{ teacher, classes }, student] = await Promise.all([teacherWithClasses(arrange, 2), arrange.student()]);
      const [first, second] = classes as [ArrangedClass, ArrangedClass];
      await arrange.signIn(page, student);

      // classDetails: image, title, teacher name and e-mail, description, price, rating; Pay Now.
      await openClassDetails(page, first);
      await expect(page.getByRole('img', { name: `Image of ${first.title}` })).toBeVisible();
      for (const label of ['Teacher', 'Email', 'Price', 'Rating'])
        await expect(page.getByText(label, { exact: true })).toBeVisible();
      await expect(page.getByText(teacher.name, { exact: true })).toBeVisible();
      await expect(page.getByText(teacher.email, { exact: true })).toBeVisible();
      await expect(page.getByText(first.description)).toBeVisible();
      await expect(page.getByText(usd(first.price), { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Pay Now' }).click();
      await expect(page).toHaveURL('/dashboard/payment');
      await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();

      // The cart can be corrected: remove the class, then choose two.
      await page.getByRole('button', { name: `Remove ${first.title} from the cart` }).click();
      await expect(page.getByText('Your cart is empty.')).toBeVisible();
      await addToCart(page, first);
      await addToCart(page, second);
      await expect(page.getByRole('heading', { name: 'Your cart (2)' })).toBeVisible();

      // The total is the server's; Pay waits for the client secret.
      const pay = page.getByRole('button', { name: /^Pay \$/ });
      await expect(pay).toBeEnabled();
      await expect(page.getByTestId('payment-total')).toHaveText(usd(first.price + second.price));

      // Client-side checks first.
      await fillCard(page, '4242 4242 4242 4241');
      await pay.click();
      await expect(page.getByText('Enter a valid card number')).toBeVisible();

      // A declined card: the gateway's words, announced, and nothing is paid.
      await fillCard(page, '4000 0000 0000 0002');
      await pay.click();
      await expect(page.getByTestId('payment-error')).toHaveText('Your card was declined.');
      await expect(page.getByTestId('payment-error')).toHaveAttribute('role', 'alert');
      await expect(page).toHaveURL('/dashboard/payment');

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
      for (const { title } of [first, second]) {
        const card = enrolledCard(page, title);
        await expect(card.getByText('Paid', { exact: true })).toBeVisible();
        await expect(card.getByRole('link', { name: 'Buy Now' })).toHaveCount(0);
      }
      // The review form opens on demand, focused on its stars.
      await page.getByRole('button', { name: `Write a review of ${first.title}` }).click();
      const review = page.getByRole('form', { name: `Review ${first.title}` });
      await expect(review.getByRole('radio', { name: '1 star' })).toBeFocused();
      await review.getByRole('button', { name: 'Submit review' }).click();
      await expect(review.getByText('Rating is required')).toBeVisible();
      await review.getByRole('radio', { name: '4 stars' }).check();
      await review.getByLabel('Your review').fill('Practical and well paced.');
      await review.getByRole('button', { name: 'Submit review' }).click();
      await expect(page.getByText('Thank you for your review!')).toBeVisible();
      // The card shows the student's review, and editing opens it filled in.
      const mine = enrolledCard(page, first.title).getByTestId('my-review');
      await expect(mine.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
      await expect(mine).toContainText('Your review');
      await expect(mine).toContainText('Practical and well paced.');
      await page.getByRole('button', { name: `Edit your review of ${first.title}` }).click();
      const edit = page.getByRole('form', { name: `Review ${first.title}` });
      await expect(edit.getByRole('radio', { name: '4 stars' })).toBeChecked();
      await expect(edit.getByLabel('Your review')).toHaveValue('Practical and well paced.');
      await edit.getByRole('radio', { name: '5 stars' }).check();
      await edit.getByRole('button', { name: 'Update review' }).click();
      await expect(page.getByText('Your review was updated.')).toBeVisible();
      await expect(mine.getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
      // After a reload too: the review comes from the server.
      await page.reload();
      await expect(
        enrolledCard(page, first.title).getByTestId('my-review').getByRole('img', { name: 'Rated 5 out of 5' }),
      ).toBeVisible();
    },
  );

  test('a pending enrollment shows Buy Now, and studentHome lists the classes', async ({ page, arrange }) => {
    const [{ classes }, student] = await Promise.all([teacherWithClasses(arrange, 3), arrange.student()]);
    const [first, second, third] = classes as [ArrangedClass, ArrangedClass, ArrangedClass];
    await arrange.paidEnrollment(student, [first.id, second.id]);
    await arrange.signIn(page, student);

    // Pay Now on a third class leaves it pending in the cart.
    await addToCart(page, third);
    // The navbar's cart counts it at once.
    await expect(page.getByTestId('nav-cart')).toHaveAccessibleName('Cart, 1 class');
    await page.goto('/dashboard/myEnrollClass');
    // Enrolled means paid: the cart line is shown, not counted.
    await expect(page.getByTestId('enrolled-total')).toHaveText('Total enrolled: 2');
    await expect(page.getByRole('link', { name: 'Buy Now' })).toHaveCount(1);
    await enrolledCard(page, third.title).getByRole('link', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await expect(page.getByRole('heading', { name: 'Your cart (1)' })).toBeVisible();

    // studentHome lists the classes at a glance.
    await dashboardMenu(page).getByRole('link', { name: 'Student Home' }).click();
    await expectReady(page);
    await expect(page.getByRole('heading', { name: 'Your classes' })).toBeVisible();
    await expect(page.getByText(first.title)).toBeVisible();
  });

  test('a demo student (README) opens a paid class and finds upcoming sessions and materials', async ({ page }) => {
    // The seed's first student (README, "Demo logins"); the seed is the e2e server's own (SEED=true).
    await logIn(page, 'student1@skillhive.test', 'Demo!Pass1');
    await page.goto('/dashboard/myEnrollClass');
    await page
      .getByRole('article', { name: 'React from zero to production' })
      .getByRole('link', { name: 'Open class' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'React from zero to production' })).toBeVisible();
    const upcoming = page.getByRole('region', { name: 'Upcoming sessions' });
    await expect(upcoming.getByTestId('student-session').filter({ hasText: 'Week 5: Project clinic' })).toBeVisible();
    const past = page.getByRole('region', { name: 'Past sessions' });
    await expect(past.getByTestId('student-session')).toHaveCount(3);
    // Progress the seed marked: two of the three held sessions attended.
    await expect(past.getByRole('checkbox', { name: 'I attended this session', checked: true })).toHaveCount(2);
    const materials = page.getByRole('region', { name: 'Materials' });
    await expect(materials.getByTestId('student-material')).toHaveCount(3);
    await expect(
      materials.getByRole('link', { name: /^Download react-from-zero-to-production-outline\.pdf/ }),
    ).toBeVisible();
    // The teacher's drafts stay the teacher's.
    await expect(page.getByText('(draft)')).toHaveCount(0);
  });
});
