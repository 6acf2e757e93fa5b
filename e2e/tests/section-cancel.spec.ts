import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import { expectLoaded, expectReady } from '../fixtures/dashboard.ts';

/**
 * A teacher cancels a section a student paid for (decision 052): the section editor's Cancel
 * section asks in a dialog with an optional message, the section shows as cancelled, and the
 * student sees the class refunded on My classes.
 */

test.use({ reducedMotion: 'reduce' });

test('a teacher cancels a section with a paid student; the student sees the refund', async ({
  page,
  browser,
  baseURL,
  arrange,
}) => {
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Live knitting ${uniqueStamp()}`, price: 31 });
  const sectionId = await arrange.section(teacher, item.id, {
    timeZone: 'Europe/Lisbon',
    capacity: 5,
    enrollClosesAt: '2099-01-10T09:00',
  });
  const session = await teacher.api.post(`/api/classes/${item.id}/sessions`, {
    data: {
      sectionId,
      title: 'Casting on',
      startsAt: '2099-01-20T18:00',
      timeZone: 'Europe/Lisbon',
      durationMinutes: 60,
      meetingUrl: 'https://meet.example.test/knit',
    },
  });
  expect(session.status(), await session.text()).toBe(201);
  const student = await arrange.student('cancelled');
  await arrange.paidEnrollment(student, [item.id]);

  const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  try {
    const teacherPage = await teacherContext.newPage();
    await arrange.signIn(teacherPage, teacher);
    await teacherPage.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(teacherPage);
    const sectionItem = teacherPage.getByTestId('section-item');
    await expect(sectionItem).toHaveCount(1);
    await sectionItem.getByRole('button', { name: 'Cancel Section 1' }).click();
    const dialog = teacherPage.getByRole('dialog', { name: 'Cancel Section 1?' });
    await expect(dialog).toContainText('Every student who paid (1) is refunded in full');
    await dialog.getByLabel('Message to the students (optional)').fill('The yarn shop closed.');
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(dialog).toBeHidden();
    await expect(sectionItem.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(sectionItem.getByRole('button', { name: 'Cancel Section 1' })).toHaveCount(0);
  } finally {
    await teacherContext.close();
  }

  await arrange.signIn(page, student);
  await page.goto('/dashboard/myEnrollClass');
  await expectReady(page);
  const enrolled = page.getByRole('article', { name: item.title });
  await expect(enrolled.getByText('Refunded', { exact: true })).toBeVisible();
});
