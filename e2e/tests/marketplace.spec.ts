import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO, fillLogin, logIn, logOut, accountButton, accessToken, newUser, signUp } from '../fixtures/app.ts';
import { dashboardMenu, expectLoaded, makePng } from '../fixtures/dashboard.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('04/33');
  await page.getByLabel('CVC').fill('314');
}

/** GET /api/payments/:email as the signed-in page: how many payments are recorded. */
async function paymentCount(page: Page, email: string): Promise<number> {
  const token = await accessToken(page);
  const response = await page.request.get(`/api/payments/${encodeURIComponent(email)}?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return Number(response.headers()['x-total-count']);
}

test.describe('the marketplace story', () => {
  test('apply to teach → approved → add a class → class approved → a student pays, is Paid, and reviews it', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const stamp = Date.now().toString(36);
    const classTitle = `Marketplace class ${stamp}`;
    const reviewText = `Loved every session of ${classTitle}.`;

    // 1. A new user signs up and applies to teach.
    const teacherUser = newUser('teacher');
    const teacher = await newPage(browser);
    await signUp(teacher, teacherUser);
    // Applying to teach and paying need a verified address (issue 19 §2): follow the mail's link.
    await verifyEmailViaMailbox(baseURL!, teacherUser.email);
    await teacher.goto('/teach');
    await teacher.getByLabel('Title').fill('Illustration for beginners');
    await teacher.getByLabel('Experience').selectOption('experienced');
    await teacher.getByLabel('Category').selectOption('graphic-design');
    await teacher.getByRole('button', { name: 'Submit for review' }).click();
    await expect(teacher.getByTestId('teacher-request-status')).toContainText('Pending');

    // 2. The admin approves the request.
    const admin = await newPage(browser);
    await logIn(admin, DEMO.admin);
    await admin.goto('/dashboard/teacherRequest?status=pending');
    await expectLoaded(admin);
    await admin.getByRole('button', { name: `Approve ${teacherUser.name}` }).click();
    await expect(admin.getByText(`${teacherUser.name} is a teacher now.`)).toBeVisible();

    // 3. The same user, signed in again, is a teacher and adds a class with an uploaded image.
    await teacher.goto('/');
    await logOut(teacher);
    await teacher.goto('/login');
    await fillLogin(teacher, teacherUser.email, teacherUser.password);
    await expect(accountButton(teacher)).toBeVisible();
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
    const teacherCard = teacher.locator('article').filter({ has: teacher.getByRole('heading', { name: classTitle }) });
    await expect(teacherCard.getByText('Pending', { exact: true })).toBeVisible();

    // 4. The admin approves the class.
    await admin.goto('/dashboard/allClasses?status=pending');
    await expectLoaded(admin);
    await admin.getByRole('button', { name: `Approve ${classTitle}` }).click();
    await expect(admin.getByText(`"${classTitle}" is accepted.`)).toBeVisible();
    await teacher.reload();
    await expect(teacherCard.getByText('Accepted', { exact: true })).toBeVisible();
    await expect(teacherCard.getByRole('button', { name: 'See Details' })).toBeEnabled();

    // 5. A student finds it in /allClassAllowed.
    const studentUser = newUser('buyer');
    const student = await newPage(browser);
    await signUp(student, studentUser);
    await verifyEmailViaMailbox(baseURL!, studentUser.email);
    await student.goto('/allClassAllowed');
    await student.getByLabel('Search classes').fill(classTitle);
    await student.keyboard.press('Enter');
    const listing = student.locator('article').filter({ has: student.getByRole('heading', { name: classTitle }) });
    await expect(listing).toBeVisible();
    await listing.getByRole('link', { name: 'Enroll Now' }).click();
    // The public class page (issue 20 §5): the teacher by name, never their e-mail.
    await expect(student.getByRole('heading', { level: 1, name: classTitle })).toBeVisible();
    await expect(student.getByText(teacherUser.name).first()).toBeVisible();
    await expect(student.getByText(teacherUser.email)).toHaveCount(0);
    await student.getByRole('button', { name: 'Pay Now' }).click();
    await expect(student).toHaveURL('/dashboard/payment');
    await expect(student.getByTestId('payment-total')).toHaveText('$42.50');

    // A declined card shows the gateway's error in red and records nothing.
    const pay = student.getByRole('button', { name: 'Pay $42.50' });
    await expect(pay).toBeEnabled();
    await fillCard(student, '4000 0000 0000 0002');
    await pay.click();
    const error = student.getByTestId('payment-error');
    await expect(error).toHaveText('Your card was declined.');
    await expect(error).toHaveClass(/text-error/);
    await expect(error).toHaveAttribute('role', 'alert');
    expect(await paymentCount(student, studentUser.email)).toBe(0);
    await student.goto('/dashboard/myEnrollClass');
    const enrolled = student.locator('article').filter({ has: student.getByRole('heading', { name: classTitle }) });
    await expect(enrolled.getByText('Pending', { exact: true })).toBeVisible();

    // 4242 4242 4242 4242 pays; the class is Paid in myEnrollClass.
    await enrolled.getByRole('link', { name: 'Buy Now' }).click();
    await expect(student).toHaveURL('/dashboard/payment');
    await fillCard(student, '4242 4242 4242 4242');
    await student.getByRole('button', { name: 'Pay $42.50' }).click();
    await expect(student).toHaveURL('/dashboard/myEnrollClass');
    await expect(student.getByText('Payment successful! Enjoy your classes.')).toBeVisible();
    await expect(enrolled.getByText('Paid', { exact: true })).toBeVisible();
    await expect(student.getByTestId('enrolled-total')).toHaveText('Total enrolled: 1');
    expect(await paymentCount(student, studentUser.email)).toBe(1);

    // 6. The student reviews the class; the review appears on the home page.
    await student.getByRole('button', { name: `Write a review of ${classTitle}` }).click();
    const review = student.getByRole('form', { name: `Review ${classTitle}` });
    await review.getByRole('radio', { name: '5 stars' }).check();
    await review.getByLabel('Your review').fill(reviewText);
    await review.getByRole('button', { name: 'Submit review' }).click();
    await expect(student.getByText('Thank you for your review!')).toBeVisible();

    const visitor = await newPage(browser);
    await visitor.goto('/');
    const reviews = visitor.getByRole('region', { name: 'What our learners say' });
    await expect(reviews.getByText(reviewText)).toBeVisible();
    await expect(reviews).toContainText(studentUser.name);

    // The teacher sees the enrolment and the revenue on the class's page.
    await teacher.goto('/dashboard/myClass');
    await teacherCard.getByRole('button', { name: 'See Details' }).click();
    await expectLoaded(teacher);
    await expect(teacher.getByText('$42.50').first()).toBeVisible();
  });
});
