import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import { expectLoaded, expectNoAxeViolationsInBothThemes } from '../fixtures/dashboard.ts';

/**
 * Waitlists (decision 051): a full section on the class page offers its waiting list; a student
 * joins it and sees their place; when the seat frees (the buyer holding it removes it from their
 * cart), the first person waiting is offered it at once, sees "A seat is held for you", enrolls
 * and pays with the test gateway. The teacher sees the queue in the sections editor.
 */

test('a student joins a full section’s waiting list, is offered the seat that frees and pays for it', async ({
  page,
  arrange,
  browser,
  baseURL,
}) => {
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Live weaving ${uniqueStamp()}`, price: 21 });
  const sectionId = await arrange.section(teacher, item.id, {
    timeZone: 'Europe/Lisbon',
    capacity: 1,
    enrollClosesAt: '2099-01-15T09:00',
  });
  // Someone is paying for the one seat: the section is full.
  const holder = await arrange.user();
  const held = await holder.api.post('/api/enrolled', { data: { enrollId: item.id, sectionId } });
  expect(held.status(), await held.text()).toBe(201);
  const heldLine = ((await held.json()) as { insertedId: string }).insertedId;

  // A visitor is asked to sign in to join.
  const visitor = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  try {
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`/classes/${item.id}`);
    const waitlist = visitorPage.getByTestId('section-waitlist');
    await expect(waitlist).toContainText('Full — join the waitlist.');
    await expect(waitlist.getByRole('link', { name: 'Sign in to join the waiting list of Section 1' })).toBeVisible();
  } finally {
    await visitor.close();
  }

  const student = await arrange.student('waiter');
  await arrange.signIn(page, student);
  await page.goto(`/classes/${item.id}`);
  const waitlist = page.getByTestId('section-waitlist');
  await expect(page.getByTestId('schedule-section')).toContainText('No seats left');
  await waitlist.getByRole('button', { name: 'Full — join the waitlist of Section 1' }).click();
  await expect(waitlist.getByRole('status')).toHaveText('You are on the waiting list (position 1).');
  await expect(waitlist.getByRole('button', { name: 'Leave the waiting list of Section 1' })).toBeVisible();
  await expectNoAxeViolationsInBothThemes(page);

  // The teacher sees who waits, by name.
  const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  try {
    const teacherPage = await teacherContext.newPage();
    await arrange.signIn(teacherPage, teacher);
    await teacherPage.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(teacherPage);
    const queue = teacherPage.getByTestId('section-queue');
    await expect(queue.getByRole('heading', { name: 'Waiting list of Section 1' })).toBeVisible();
    await expect(queue.getByRole('row').nth(1)).toContainText(student.name);
    await expect(queue).not.toContainText(student.email);
    await expectNoAxeViolationsInBothThemes(teacherPage);
  } finally {
    await teacherContext.close();
  }

  // The seat frees: the buyer holding it removes the class from their cart.
  const removed = await holder.api.delete(`/api/enrolled/${heldLine}`);
  expect(removed.status(), await removed.text()).toBe(200);
  await page.reload();
  await expect(waitlist.getByRole('status')).toContainText('A seat is held for you until');
  await expectNoAxeViolationsInBothThemes(page);
  // Others still see the section full.
  const other = await arrange.user();
  expect((await other.api.post('/api/enrolled', { data: { enrollId: item.id, sectionId } })).status()).toBe(409);

  await waitlist.getByRole('button', { name: 'Enroll now' }).click();
  await expect(page).toHaveURL('/dashboard/payment');
  const pay = page.getByRole('button', { name: /^Pay \$/ });
  await expect(pay).toBeEnabled();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await pay.click();
  await expect(page).toHaveURL('/dashboard/myEnrollClass');
  await expect(page.getByText('Payment successful! Enjoy your classes.')).toBeVisible();
});
