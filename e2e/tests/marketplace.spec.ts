import type { Browser, Page } from '@playwright/test';
import { expect, test, uniqueStamp, type Arrange, type Person } from '../fixtures/arrange.ts';
import { dashboardMenu, expectLoaded, expectReady, makePng } from '../fixtures/dashboard.ts';

/**
 * The marketplace story (spec §4), in two halves: a user applies to teach, an admin approves them,
 * they add a class with an uploaded image and the admin approves the class, all on the screens;
 * then a student buys such a class, sees it Paid and reviews it, and its teacher sees the revenue.
 * The purchase is arranged through the API (the payment form is dashboard-student's and stripe's).
 */

/** A browser of its own for `person`, signed in with their session cookie. */
async function pageOf(browser: Browser, baseURL: string, arrange: Arrange, person?: Person): Promise<Page> {
  const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  if (person) await arrange.signIn(page, person);
  return page;
}

/** GET /api/payments/:email as the student: how many payments are recorded. */
async function paymentCount(student: Person): Promise<number> {
  const response = await student.api.get(`/api/payments/${encodeURIComponent(student.email)}?limit=1`);
  expect(response.ok(), await response.text()).toBe(true);
  return Number(response.headers()['x-total-count']);
}

test.describe('the marketplace story', () => {
  test('apply to teach → an admin approves → the new teacher adds a class with an uploaded image → the admin approves it', async ({
    browser,
    baseURL,
    arrange,
  }) => {
    const stamp = uniqueStamp();
    const classTitle = `Marketplace class ${stamp}`;
    const [applicant, admin] = await Promise.all([arrange.user('applicant'), arrange.admin()]);
    const teacher = await pageOf(browser, baseURL!, arrange, applicant);
    const adminPage = await pageOf(browser, baseURL!, arrange, admin);
    try {
      // 1. A verified user applies to teach.
      await teacher.goto('/teach');
      await teacher.getByLabel('Title').fill('Illustration for beginners');
      await teacher.getByLabel('Experience').selectOption('experienced');
      await teacher.getByLabel('Category').selectOption('graphic-design');
      await teacher.getByRole('button', { name: 'Submit for review' }).click();
      await expect(teacher.getByTestId('teacher-request-status')).toContainText('Pending');

      // 2. The admin approves the request, found by the applicant's e-mail.
      await adminPage.goto(`/dashboard/teacherRequest?status=pending&q=${encodeURIComponent(applicant.email)}`);
      await expectReady(adminPage);
      await adminPage.getByRole('button', { name: `Approve ${applicant.name}` }).click();
      await adminPage.getByRole('button', { name: 'Yes, approve' }).click();
      await expect(adminPage.getByText(`${applicant.name} is a teacher now.`)).toBeVisible();

      // 3. The same user, on their next visit, is a teacher and adds a class with an uploaded image.
      await teacher.goto('/dashboard');
      await expect(teacher).toHaveURL('/dashboard/teacherHome');
      await dashboardMenu(teacher).getByRole('link', { name: 'Add a Class' }).click();
      await teacher.getByLabel('Title').fill(classTitle);
      await teacher.getByLabel('Price (USD)').fill('42.5');
      await teacher.getByLabel('Description').fill('Sketching, inking and colouring, step by step.');
      await teacher.getByLabel('Category').selectOption('graphic-design');
      await teacher
        .getByLabel('Image', { exact: true })
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: makePng(320, 180) });
      await expect(teacher.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '100');
      await teacher.getByRole('button', { name: 'Add Class' }).click();
      await expect(teacher).toHaveURL('/dashboard/myClass');
      const teacherCard = teacher
        .locator('article')
        .filter({ has: teacher.getByRole('heading', { name: classTitle }) });
      await expect(teacherCard.getByText('Pending', { exact: true })).toBeVisible();

      // 4. The admin approves the class, found by its title; the teacher sees it Accepted.
      await adminPage.goto(`/dashboard/allClasses?status=pending&q=${encodeURIComponent(stamp)}`);
      await expectReady(adminPage);
      await adminPage.getByRole('button', { name: `Approve ${classTitle}` }).click();
      await expect(adminPage.getByText(`"${classTitle}" is accepted.`)).toBeVisible();
      await teacher.reload();
      await expect(teacherCard.getByText('Accepted', { exact: true })).toBeVisible();
      await expect(teacherCard.getByRole('button', { name: 'See Details' })).toBeEnabled();
    } finally {
      await Promise.all([teacher.context().close(), adminPage.context().close()]);
    }
  });

  test('a student finds the new class, buys it, sees it Paid and reviews it; the teacher sees the revenue', async ({
    browser,
    baseURL,
    arrange,
  }) => {
    const stamp = uniqueStamp();
    const classTitle = `Marketplace class ${stamp}`;
    const reviewText = `Loved every session of ${classTitle}.`;
    const [teacherPerson, student] = await Promise.all([arrange.teacher('illustrator'), arrange.student('buyer')]);
    const item = await arrange.acceptedClass(teacherPerson, { title: classTitle, price: 42.5 });

    // 5. A student finds it in /allClassAllowed; its page names the teacher, never their e-mail.
    const buyer = await pageOf(browser, baseURL!, arrange, student);
    try {
      await buyer.goto('/allClassAllowed');
      await buyer.getByLabel('Search classes').fill(classTitle);
      await buyer.keyboard.press('Enter');
      const listing = buyer.locator('article').filter({ has: buyer.getByRole('heading', { name: classTitle }) });
      await expect(listing).toBeVisible();
      await listing.getByRole('link', { name: 'Enroll Now' }).click();
      await expect(buyer).toHaveURL(`/classes/${item.id}`);
      await expect(buyer.getByRole('heading', { level: 1, name: classTitle })).toBeVisible();
      await expect(buyer.getByText(teacherPerson.name).first()).toBeVisible();
      await expect(buyer.getByText(teacherPerson.email)).toHaveCount(0);
      await buyer.getByRole('button', { name: 'Pay Now' }).click();
      await expect(buyer).toHaveURL('/dashboard/payment');
      await expect(buyer.getByTestId('payment-total')).toHaveText('$42.50');
      expect(await paymentCount(student)).toBe(0);

      // The cart is paid through the API; the class is Paid in myEnrollClass.
      await arrange.paidEnrollment(student, []);
      await buyer.goto('/dashboard/myEnrollClass');
      const enrolled = buyer.locator('article').filter({ has: buyer.getByRole('heading', { name: classTitle }) });
      await expect(enrolled.getByText('Paid', { exact: true })).toBeVisible();
      await expect(buyer.getByTestId('enrolled-total')).toHaveText('Total enrolled: 1');
      expect(await paymentCount(student)).toBe(1);

      // 6. The student reviews the class.
      await buyer.getByRole('button', { name: `Write a review of ${classTitle}` }).click();
      const review = buyer.getByRole('form', { name: `Review ${classTitle}` });
      await review.getByRole('radio', { name: '5 stars' }).check();
      await review.getByLabel('Your review').fill(reviewText);
      await review.getByRole('button', { name: 'Submit review' }).click();
      await expect(buyer.getByText('Thank you for your review!')).toBeVisible();
    } finally {
      await buyer.context().close();
    }

    // The review appears on the home page: its ten newest reviews (tests beside this one add a few at most).
    const visitor = await pageOf(browser, baseURL!, arrange);
    try {
      await visitor.goto('/');
      const reviews = visitor.getByRole('region', { name: 'What our learners say' });
      await expect(reviews.getByText(reviewText)).toBeVisible();
      await expect(reviews).toContainText(student.name);
    } finally {
      await visitor.context().close();
    }

    // The teacher sees the enrollment and the revenue on the class's page.
    const teacher = await pageOf(browser, baseURL!, arrange, teacherPerson);
    try {
      await teacher.goto('/dashboard/myClass');
      await teacher
        .locator('article')
        .filter({ has: teacher.getByRole('heading', { name: classTitle }) })
        .getByRole('button', { name: 'See Details' })
        .click();
      await expect(teacher).toHaveURL(`/dashboard/my-class/${item.id}`);
      await expectLoaded(teacher);
      await expect(teacher.getByText('$42.50').first()).toBeVisible();
    } finally {
      await teacher.context().close();
    }
  });
});
