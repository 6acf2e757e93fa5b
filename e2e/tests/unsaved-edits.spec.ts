import type { Page } from '@playwright/test';
import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import { expectLoaded } from '../fixtures/dashboard.ts';

/*
 * Edits not yet saved are not lost to a stray link (decision 024, React Router's useBlocker): the
 * class form and the class content editor ask first; Stay keeps the edits, Leave goes on.
 */

const homeLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).first();
const leaveDialog = (page: Page) => page.getByRole('dialog', { name: 'Leave this page?' });

test.describe('unsaved edits', () => {
  test('the class form asks before a link leaves its edits; Stay keeps them, Leave goes on', async ({
    page,
    arrange,
  }) => {
    const teacher = await arrange.teacher();
    await arrange.signIn(page, teacher);
    await page.goto('/dashboard/addClasses');
    await expect(page.getByRole('heading', { level: 1, name: 'Add a class' })).toBeVisible();

    // Nothing typed yet: the link goes at once.
    await homeLink(page).click();
    await expect(page).toHaveURL('/');
    await expect(leaveDialog(page)).toHaveCount(0);

    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Add a class' })).toBeVisible();
    await page.getByLabel('Title').fill('Half a class');
    await homeLink(page).click();
    await expect(leaveDialog(page)).toBeVisible();
    await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
    await expect(leaveDialog(page)).toBeHidden();
    await expect(page).toHaveURL('/dashboard/addClasses');
    await expect(page.getByLabel('Title')).toHaveValue('Half a class');

    await homeLink(page).click();
    await leaveDialog(page).getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL('/');
  });

  test('the content editor asks before a link leaves a session not yet added', async ({ page, arrange }) => {
    const teacher = await arrange.teacher();
    const item = await arrange.acceptedClass(teacher, { title: `Guarded class ${uniqueStamp()}`, price: 19 });
    await arrange.signIn(page, teacher);
    await page.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(page);
    const editor = page.getByRole('region', { name: 'Sessions and materials' });
    await editor.getByText('Add a session').click();
    await editor.getByRole('form', { name: 'Add a session' }).getByLabel('Session title').fill('Kick-off');

    await homeLink(page).click();
    await expect(leaveDialog(page)).toBeVisible();
    await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(`/dashboard/my-class/${item.id}`);
    await expect(editor.getByLabel('Session title')).toHaveValue('Kick-off');

    await homeLink(page).click();
    await leaveDialog(page).getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL('/');
  });
});
