import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import { expectLoaded } from '../fixtures/dashboard.ts';

/**
 * The public schedule (decision 042): a visitor sees a live class's sections with session times in
 * their own time zone (a Chromium context with its own `timezoneId`), the zone named, and seats
 * left; a full section cannot be bought; the teacher sees the sections on my-class/:id.
 */

test('a visitor sees the schedule in their own zone, seats left, and cannot buy a full section', async ({
  arrange,
  browser,
  baseURL,
}) => {
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Live bread ${uniqueStamp()}`, price: 19 });
  const section = (capacity: number) =>
    arrange.section(teacher, item.id, { timeZone: 'Asia/Tokyo', capacity, enrollClosesAt: '2099-01-15T09:00' });
  const roomy = await section(3);
  const tiny = await section(1);
  // 09:00 in Tokyo on 20 January 2099 is 00:00 UTC, 19:00 the day before in New York.
  const session = await teacher.api.post(`/api/classes/${item.id}/sessions`, {
    data: {
      sectionId: roomy,
      title: 'Sourdough starter',
      startsAt: '2099-01-20T09:00',
      timeZone: 'Asia/Tokyo',
      durationMinutes: 90,
      meetingUrl: 'https://meet.example.test/private-room',
    },
  });
  expect(session.status(), await session.text()).toBe(201);
  const { _id: sessionId } = (await session.json()) as { _id: string };
  const published = await teacher.api.post(`/api/class-sessions/${sessionId}/publish`, { data: { published: true } });
  expect(published.ok(), await published.text()).toBe(true);
  // Someone is paying for the one seat of the small section: it is full.
  const holder = await arrange.user();
  const held = await holder.api.post('/api/enrolled', { data: { enrollId: item.id, sectionId: tiny } });
  expect(held.status(), await held.text()).toBe(201);

  for (const [timezoneId, when] of [
    ['America/New_York', /Jan 19, 2099.*07:00\s?PM EST/],
    ['Asia/Tokyo', /Jan 20, 2099.*09:00\s?AM GMT\+9/],
  ] as const) {
    const context = await browser.newContext({ baseURL, reducedMotion: 'reduce', timezoneId });
    try {
      const page = await context.newPage();
      await page.goto(`/classes/${item.id}`);
      const schedule = page.getByTestId('class-schedule');
      await expect(schedule.getByText(`Times are shown in your time zone (${timezoneId}).`)).toBeVisible();
      const sections = schedule.getByTestId('schedule-section');
      await expect(sections).toHaveCount(2);
      await expect(sections.nth(0)).toContainText(when);
      await expect(sections.nth(0)).toContainText('Sourdough starter');
      await expect(sections.nth(0)).toContainText('3 seats left');
      await expect(sections.nth(1)).toContainText('Full');
      await expect(sections.nth(1).getByRole('radio')).toBeDisabled();
      await expect(page.getByText('private-room')).toHaveCount(0);
    } finally {
      await context.close();
    }
  }

  // A signed-in student cannot pick the full section, and the API refuses it with a clear 409.
  const student = await arrange.user();
  const refused = await student.api.post('/api/enrolled', { data: { enrollId: item.id, sectionId: tiny } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('This section is full');

  // The teacher manages the sections on the class's page.
  const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  try {
    const page = await teacherContext.newPage();
    await arrange.signIn(page, teacher);
    await page.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(page);
    await expect(page.getByRole('heading', { name: 'Sections' })).toBeVisible();
    await expect(page.getByTestId('section-item')).toHaveCount(2);
  } finally {
    await teacherContext.close();
  }
});

test('from the dashboard’s class details, a student picks a section and Pay Now holds a seat in it', async ({
  page,
  arrange,
}) => {
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Live pottery ${uniqueStamp()}`, price: 23 });
  for (let i = 0; i < 2; i++) {
    await arrange.section(teacher, item.id, { timeZone: 'Europe/Berlin', capacity: 2 });
  }
  const student = await arrange.student('picker');
  await arrange.signIn(page, student);
  await page.goto(`/dashboard/classDetails/${item.id}`);
  await expectLoaded(page);
  const sections = page.getByTestId('class-schedule').getByTestId('schedule-section');
  await expect(sections).toHaveCount(2);
  await expect(sections.nth(0).getByRole('radio')).toBeChecked();
  await sections.nth(1).getByRole('radio').check();
  await page.getByRole('button', { name: 'Pay Now' }).click();
  await expect(page).toHaveURL('/dashboard/payment');

  // The seat held is the second section's, not the oldest one's.
  await page.goto(`/classes/${item.id}`);
  const publicSections = page.getByTestId('class-schedule').getByTestId('schedule-section');
  await expect(publicSections.nth(0)).toContainText('2 seats left');
  await expect(publicSections.nth(1)).toContainText('1 seat left');
});
