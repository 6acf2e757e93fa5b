import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import { expectLoaded, expectNoAxeViolationsInBothThemes, expectReady } from '../fixtures/dashboard.ts';

/**
 * The teacher's editor before approval: a teacher creates a class, prepares six weekly sessions
 * in one step while it is pending review (the time zone picked by its current name, Asia/Kolkata),
 * an admin approves the class, the teacher publishes them all, and a visitor sees the six in the
 * public schedule, in their own time zone.
 */

/** The local date a week from now, at 18:00: the form's `YYYY-MM-DDTHH:mm`. */
function nextWeekAt18(): string {
  return `${new Date(Date.now() + 7 * 24 * 3600_000).toISOString().slice(0, 10)}T18:00`;
}

test('six weekly drafts prepared before approval, published all at once after it, seen by a visitor', async ({
  page,
  browser,
  baseURL,
  arrange,
}) => {
  test.slow();
  const teacher = await arrange.teacher();
  const item = await arrange.pendingClass(teacher, { title: `Weekly clay ${uniqueStamp()}`, price: 25 });
  await arrange.signIn(page, teacher);

  // My Classes: See Details waits for acceptance (spec §2); the editor is open already.
  await page.goto('/dashboard/myClass');
  await expectReady(page);
  const card = page.locator('article').filter({ has: page.getByRole('heading', { name: item.title }) });
  await expect(card.getByRole('button', { name: 'See Details' })).toBeDisabled();
  await card.getByRole('link', { name: 'Sessions and materials' }).click();
  await expect(page).toHaveURL(`/dashboard/my-class/${item.id}/prepare`);
  await expectLoaded(page);
  await expect(page.getByRole('status').filter({ hasText: 'waiting for an admin’s review' })).toBeVisible();

  // Six weekly sessions in one step, in a zone found by typing part of its current name.
  const editor = page.getByRole('region', { name: 'Sessions and materials' });
  await editor.getByText('Add a session').click();
  const form = editor.getByRole('form', { name: 'Add a session' });
  await form.getByLabel('Session title').fill('Studio evening');
  await form.getByLabel('Starts at').fill(nextWeekAt18());
  const zone = form.getByRole('combobox', { name: 'Time zone' });
  await zone.fill('Asia/Kolkata');
  await form.getByLabel('Duration (minutes)').fill('90');
  await form.getByLabel('Meeting link').fill('https://meet.example.test/studio');
  await form.getByLabel('Repeat weekly (number of sessions)').fill('53');
  await form.getByRole('button', { name: 'Add session' }).click();
  await expect(form.getByText('Repeat weekly 1 to 52 times')).toBeVisible();
  // The open form with its picker and a refusal: no axe violations, light and dark.
  await expectNoAxeViolationsInBothThemes(page);
  await form.getByLabel('Repeat weekly (number of sessions)').fill('6');
  await form.getByRole('button', { name: 'Add session' }).click();
  const sessions = editor.getByTestId('session-item').filter({ hasText: 'Studio evening' });
  await expect(sessions).toHaveCount(6);
  await expect(sessions.getByText('Draft', { exact: true })).toHaveCount(6);
  await expect(editor.getByText('6 sessions are drafts')).toBeVisible();

  // Pending: no public schedule for a visitor yet.
  const visitor = await browser.newContext({ baseURL, reducedMotion: 'reduce', timezoneId: 'Europe/Berlin' });
  expect((await visitor.request.get(`/api/classes/${item.id}/schedule`)).status()).toBe(404);

  await arrange.approveClass(item.id);
  // Accepted, the sessions still drafts: the visitor sees no session time.
  const before = (await (await visitor.request.get(`/api/classes/${item.id}/schedule`)).json()) as {
    sessions: unknown[];
  }[];
  expect(before.flatMap((section) => section.sessions)).toEqual([]);

  // Publish all: asked first, then says how many.
  await page.reload();
  await expectLoaded(page);
  await editor.getByRole('button', { name: 'Publish all' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish 6 sessions?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes, publish' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Published 6 sessions.' })).toBeVisible();
  await expect(sessions.getByText('Published', { exact: true })).toHaveCount(6);
  await expect(editor.getByRole('button', { name: 'Publish all' })).toBeDisabled();

  // The visitor, in Berlin, sees the six sessions on the class page.
  try {
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`/classes/${item.id}`);
    const schedule = visitorPage.getByTestId('class-schedule');
    await expect(schedule.getByText('Times are shown in your time zone (Europe/Berlin).')).toBeVisible();
    await expect(schedule.getByRole('listitem').filter({ hasText: 'Studio evening' })).toHaveCount(6);
    await expect(visitorPage.getByText('meet.example.test')).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});
