import { expect, test, uniqueStamp, type Arrange, type ArrangedClass, type Person } from '../fixtures/arrange.ts';
import {
  expectLoaded,
  expectNoAxeViolationsInBothThemes,
  expectNoHorizontalOverflow,
  expectReady,
} from '../fixtures/dashboard.ts';

/*
 * Messages between a person and a class's teacher (decision 045): asked from the public class
 * page, answered from the teacher's inbox, read back by the person who asked, in two browser
 * contexts. Markup typed into a message is shown as text. Each side's notification bell
 * (decision 047) counts the other's message as it arrives, without a reload.
 */

async function teacherWithClass(arrange: Arrange): Promise<{ teacher: Person; item: ArrangedClass }> {
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Pottery ${uniqueStamp()}`, price: 25 });
  return { teacher, item };
}

/** A question from `student` about `item`, through the API, as the class page's form sends it. */
async function ask(student: Person, item: ArrangedClass, body: string): Promise<string> {
  const res = await student.api.post(`/api/classes/${item.id}/messages`, { data: { body } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { threadId: string }).threadId;
}

test.describe('messages', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a visitor asks the teacher from the class page; the teacher answers from the inbox; the answer reaches the visitor', async ({
    page,
    browser,
    baseURL,
    arrange,
  }) => {
    const [{ teacher, item }, student] = await Promise.all([teacherWithClass(arrange), arrange.student('asker')]);
    const question = 'Do I need my own clay? <b>not bold</b>';

    // The visitor, signed in, asks from the public class page before buying.
    await arrange.signIn(page, student);
    await page.goto(`/classes/${item.id}`);
    await expectReady(page);
    await page.getByRole('button', { name: 'Message the teacher' }).click();
    const dialog = page.getByRole('dialog', { name: `Message ${teacher.name}` });
    await dialog.getByRole('button', { name: 'Send message' }).click();
    await expect(dialog.getByText('Write a message')).toBeVisible();
    await dialog.getByLabel('Your message').fill(question);
    await dialog.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Message sent.')).toBeVisible();
    await expect(dialog).toBeHidden();

    // The teacher finds it, new, in their inbox and answers it.
    const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
    try {
      const teacherPage = await teacherContext.newPage();
      await arrange.signIn(teacherPage, teacher);
      await teacherPage.goto('/dashboard/messages');
      await expectLoaded(teacherPage);
      const row = teacherPage.getByRole('link', { name: new RegExp(student.name) });
      await expect(row).toContainText('New');
      await expect(row).toContainText(item.title);
      await row.click();
      await expect(teacherPage.getByRole('heading', { level: 1, name: student.name })).toBeVisible();
      // Shown as typed, never as markup; no address of the asker anywhere.
      await expect(teacherPage.getByRole('list', { name: 'Messages' })).toContainText(question);
      await expect(teacherPage.locator('main b')).toHaveCount(0);
      await expect(teacherPage.locator('body')).not.toContainText(student.email);
      await teacherPage.getByLabel('Your answer').fill('No, the studio provides it.');
      await teacherPage.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(teacherPage.getByRole('list', { name: 'Messages' })).toContainText('No, the studio provides it.');
      await expect(teacherPage.getByLabel('Your answer')).toHaveValue('');
      await teacherPage.setViewportSize({ width: 360, height: 800 });
      await expectNoHorizontalOverflow(teacherPage);
    } finally {
      await teacherContext.close();
    }

    // The visitor reads the answer in their own inbox.
    await page.goto('/dashboard/messages');
    await expectLoaded(page);
    const thread = page.getByRole('link', { name: new RegExp(teacher.name) });
    await expect(thread).toContainText('No, the studio provides it.');
    await thread.click();
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText('No, the studio provides it.');
    await expect(page.locator('body')).not.toContainText(teacher.email);
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalOverflow(page);
  });

  test('each side’s bell counts the other’s message live, without a reload', async ({
    page,
    browser,
    baseURL,
    arrange,
  }) => {
    const [{ teacher, item }, student] = await Promise.all([teacherWithClass(arrange), arrange.student('asker')]);
    const bell = (p: typeof page, unread: number) => p.getByRole('button', { name: `Notifications, ${unread} unread` });
    /** Set once per page load: still there later means the page was never reloaded. */
    const markLoaded = (p: typeof page) => p.evaluate(() => ((window as { loadMark?: number }).loadMark = 1));
    const stillLoaded = (p: typeof page) => p.evaluate(() => (window as { loadMark?: number }).loadMark === 1);

    // Becoming a teacher and the class's approval notified the teacher already: read before the test.
    expect((await teacher.api.post('/api/notifications/read')).status()).toBe(200);
    const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
    try {
      // The teacher is on their inbox, the bell at zero.
      const teacherPage = await teacherContext.newPage();
      await arrange.signIn(teacherPage, teacher);
      await teacherPage.goto('/dashboard/messages');
      await expectLoaded(teacherPage);
      await expect(bell(teacherPage, 0)).toBeVisible();
      await markLoaded(teacherPage);

      // The visitor asks from the class page.
      await arrange.signIn(page, student);
      await page.goto(`/classes/${item.id}`);
      await expectReady(page);
      await expect(bell(page, 0)).toBeVisible();
      await markLoaded(page);
      await page.getByRole('button', { name: 'Message the teacher' }).click();
      const dialog = page.getByRole('dialog', { name: `Message ${teacher.name}` });
      await dialog.getByLabel('Your message').fill('Is the clay included?');
      await dialog.getByRole('button', { name: 'Send message' }).click();
      await expect(page.getByText('Message sent.')).toBeVisible();

      // The teacher's bell counts it, without a reload; its panel links to the conversation.
      await expect(bell(teacherPage, 1)).toBeVisible({ timeout: 10_000 });
      expect(await stillLoaded(teacherPage)).toBe(true);
      await bell(teacherPage, 1).click();
      const panel = teacherPage.getByRole('region', { name: 'Notifications' });
      await panel.getByRole('link', { name: new RegExp(`${student.name} wrote about`) }).click();
      await expect(teacherPage.getByRole('heading', { level: 1, name: student.name })).toBeVisible();
      await expect(bell(teacherPage, 0)).toBeVisible();
      await teacherPage.getByLabel('Your answer').fill('Yes, it is.');
      await teacherPage.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(teacherPage.getByRole('list', { name: 'Messages' })).toContainText('Yes, it is.');
    } finally {
      await teacherContext.close();
    }

    // The visitor's bell counts the answer the same way, still on the class page.
    await expect(bell(page, 1)).toBeVisible({ timeout: 10_000 });
    expect(await stillLoaded(page)).toBe(true);
    await bell(page, 1).click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    await expect(panel.getByRole('link', { name: new RegExp(`${teacher.name} wrote about`) })).toContainText(
      'Yes, it is.',
    );
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell(page, 0)).toBeVisible();
  });

  test('axe: the bell’s panel and the notifications page, light and dark, at 360 px', async ({ page, arrange }) => {
    const [{ teacher, item }, student] = await Promise.all([teacherWithClass(arrange), arrange.student('asker')]);
    expect((await teacher.api.post('/api/notifications/read')).status()).toBe(200);
    await ask(student, item, 'Is there parking nearby?');
    await arrange.signIn(page, teacher);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('/dashboard/notifications');
    await expectLoaded(page);
    // The question (unread) above the earlier decisions about the teacher and the class (read).
    await expect(page.getByTestId('notification').first()).toContainText('Is there parking nearby?');
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolationsInBothThemes(page);
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Is there parking nearby?');
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('a visitor who is not signed in is asked to sign in to message the teacher', async ({ page, arrange }) => {
    const { item } = await teacherWithClass(arrange);
    await page.goto(`/classes/${item.id}`);
    await expectReady(page);
    await page.getByRole('link', { name: 'Sign in to message the teacher' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByText('Sign in to message the teacher.')).toBeVisible();
  });

  // Axe apart from the journey above, one screen a test: each screen takes two passes of axe.
  test('axe: the inbox, light and dark, at 360 px', async ({ page, arrange }) => {
    const [{ teacher, item }, student] = await Promise.all([teacherWithClass(arrange), arrange.student('asker')]);
    await ask(student, item, 'Is there parking nearby?');
    await arrange.signIn(page, teacher);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('/dashboard/messages');
    await expectLoaded(page);
    await expect(page.getByRole('link', { name: new RegExp(student.name) })).toContainText('New');
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('axe: a conversation with its answer form, light and dark, at 360 px', async ({ page, arrange }) => {
    const [{ teacher, item }, student] = await Promise.all([teacherWithClass(arrange), arrange.student('asker')]);
    const threadId = await ask(student, item, 'Is there parking nearby?\nAnd a bike rack?');
    await arrange.signIn(page, teacher);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`/dashboard/messages/${threadId}`);
    await expectLoaded(page);
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Is there parking nearby?');
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolationsInBothThemes(page);
  });
});
