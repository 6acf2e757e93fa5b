import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';

/**
 * The catalogue's dates and "fits my week" filter (decision 053) for a visitor whose browser is in
 * Asia/Tokyo while the server runs in UTC: each live class's card shows its next start on the
 * visitor's clock with the zone named, the class page's schedule too, and ticking Monday keeps the
 * class whose session is on a Tokyo Monday — a Sunday in UTC — and drops the other.
 */
test.use({ timezoneId: 'Asia/Tokyo' });

test('a visitor in Tokyo sees next starts in their zone and filters by weekday', async ({ page, arrange }) => {
  const word = uniqueStamp();
  const teacher = await arrange.teacher();
  const liveClass = async (title: string, timeZone: string, startsAt: string) => {
    const item = await arrange.acceptedClass(teacher, { title: `${title} ${word}`, price: 15 });
    const sectionId = await arrange.section(teacher, item.id, { timeZone, capacity: 10 });
    const session = await teacher.api.post(`/api/classes/${item.id}/sessions`, {
      data: {
        sectionId,
        title: 'First meeting',
        startsAt,
        timeZone,
        durationMinutes: 60,
        meetingUrl: 'https://meet.example.test/room',
      },
    });
    expect(session.status(), await session.text()).toBe(201);
    const { _id: sessionId } = (await session.json()) as { _id: string };
    const published = await teacher.api.post(`/api/class-sessions/${sessionId}/publish`, { data: { published: true } });
    expect(published.ok(), await published.text()).toBe(true);
    return item;
  };
  // Monday 19 January 2099, 08:00 in Tokyo = Sunday 23:00 UTC: only the visitor's clock makes it a Monday.
  const monday = await liveClass('Tokyo mornings', 'Asia/Tokyo', '2099-01-19T08:00');
  // Wednesday 21 January 2099, 12:00 UTC = 21:00 in Tokyo, a Wednesday there too.
  await liveClass('Noon in London', 'UTC', '2099-01-21T12:00');

  await page.goto(`/allClassAllowed?q=${word}`);
  const cards = page.getByTestId('class-grid').getByRole('article');
  await expect(cards).toHaveCount(2);
  const mondayCard = cards.filter({ hasText: 'Tokyo mornings' });
  await expect(mondayCard.getByTestId('next-start')).toContainText(/Jan 19, 2099.*08:00\s?AM GMT\+9/);
  await expect(mondayCard.getByTestId('next-start')).toContainText('(Asia/Tokyo)');
  await expect(cards.filter({ hasText: 'Noon in London' }).getByTestId('next-start')).toContainText(
    /Jan 21, 2099.*09:00\s?PM GMT\+9/,
  );

  const schedule = page.getByTestId('schedule-filter');
  await schedule.getByRole('checkbox', { name: 'Monday' }).check();
  await expect(page).toHaveURL(/days=mon/);
  await expect(page).toHaveURL(/tz=Asia%2FTokyo/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Tokyo mornings');

  // In the morning, on a Tokyo Monday: still that class; in the evening, none.
  await schedule.getByRole('checkbox', { name: /Morning/ }).check();
  await expect(page).toHaveURL(/times=morning/);
  await expect(cards).toHaveCount(1);
  await schedule.getByRole('checkbox', { name: /Morning/ }).uncheck();
  await schedule.getByRole('checkbox', { name: /Evening/ }).check();
  await expect(page.getByText('No classes match your search')).toBeVisible();

  // The class page's schedule is in the visitor's zone as well, the zone named.
  await page.goto(`/classes/${monday.id}`);
  const classSchedule = page.getByTestId('class-schedule');
  await expect(classSchedule.getByText('Times are shown in your time zone (Asia/Tokyo).')).toBeVisible();
  await expect(classSchedule.getByTestId('schedule-section').first()).toContainText(/Jan 19, 2099.*08:00\s?AM GMT\+9/);
});
