import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import type { Page } from '@playwright/test';
import { accountButton, fillLogin, logOut } from '../fixtures/app.ts';
import { dashboardMenu, expectReady } from '../fixtures/dashboard.ts';

/** The titles on the enrolled-classes page (one page: each student paid for two classes). */
async function enrolledTitles(page: Page): Promise<string[]> {
  await dashboardMenu(page).getByRole('link', { name: 'My Enrolled Classes' }).click();
  await expect(page).toHaveURL(/\/dashboard\/myEnrollClass/);
  const titles = page.locator('main article h2');
  await expect(titles).toHaveCount(2);
  return (await titles.allTextContents()).map((t) => t.trim());
}

/**
 * Watches the page from now on (no reload may happen, or the watch is lost): every time the DOM
 * changes, any of `markers` in its text or in a label (aria-label, alt, title) is recorded.
 */
async function watchFor(page: Page, markers: string[]): Promise<void> {
  await page.evaluate((markers) => {
    const seen = new Set<string>();
    const w = window as unknown as { __leaks: string[]; __watching: boolean };
    w.__leaks = [];
    w.__watching = true;
    const check = () => {
      // Public pages (home's reviews, the catalogue) name students and classes to everyone: there
      // only the navbar is personal. Once the dashboard is on screen, all of it is.
      const dashboard = document.querySelector('nav[aria-label="Dashboard"]') !== null;
      const scope = dashboard ? document.body : document.querySelector('header');
      if (!scope) return;
      const labels = [...scope.querySelectorAll('[aria-label],[alt],[title]')]
        .map((el) => ['aria-label', 'alt', 'title'].map((name) => el.getAttribute(name) ?? '').join(' '))
        .join(' ');
      const text = `${scope.textContent ?? ''} ${labels}`;
      for (const marker of markers) {
        if (text.includes(marker) && !seen.has(marker)) {
          seen.add(marker);
          w.__leaks.push(marker);
        }
      }
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-label', 'alt', 'title'],
    });
    check();
  }, markers);
}

async function leaks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __leaks?: string[]; __watching?: boolean };
    if (!w.__watching) throw new Error('The page was reloaded: the watch was lost.');
    return w.__leaks ?? [];
  });
}

test.describe('signing in as another user in the same tab', () => {
  test("never shows the previous user's name, e-mail or classes", async ({ page, arrange }) => {
    // Two students of one teacher: a class both took, and one each that the other never saw.
    const [teacher, studentA, studentB] = await Promise.all([
      arrange.teacher('switch-teacher'),
      arrange.student('switch-a'),
      arrange.student('switch-b'),
    ]);
    const [shared, onlyA, onlyB] = await Promise.all(
      ['both', 'A', 'B'].map((who) => arrange.acceptedClass(teacher, { title: `Switch ${who} ${uniqueStamp()}` })),
    );
    await Promise.all([
      arrange.paidEnrollment(studentA, [shared!.id, onlyA!.id]),
      arrange.paidEnrollment(studentB, [shared!.id, onlyB!.id]),
    ]);

    // Student A: their home, enrolled classes and profile are loaded into this tab's memory.
    await arrange.signIn(page, studentA);
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/studentHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hi, Welcome ${studentA.name}`);
    const greeting = `Hi, Welcome ${studentA.name}`;
    const titlesA = await enrolledTitles(page);
    expect(titlesA.sort()).toEqual([shared!.title, onlyA!.title].sort());
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByText(studentA.email).first()).toBeVisible();

    // Signed out and in again without a reload: whatever A left in memory could still render.
    await expectReady(page);
    await logOut(page);
    await watchFor(page, [studentA.name, studentA.email, ...titlesA]);
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await expect(page).toHaveURL(/\/login/);
    // The form is the only way to change users without a reload.
    await fillLogin(page, studentB.email, studentB.password);
    await expect(accountButton(page)).toBeVisible();
    expect(await accountButton(page).getAttribute('aria-label')).not.toContain(studentA.name);

    // Student B's pages, reached through the app's own links.
    await expectReady(page);
    await accountButton(page).click();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL('/dashboard/studentHome');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(greeting);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hi, Welcome ${studentB.name}`);
    const titlesB = await enrolledTitles(page);
    expect(titlesB.sort()).toEqual([shared!.title, onlyB!.title].sort());
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByText(studentB.email).first()).toBeVisible();
    await dashboardMenu(page).getByRole('link', { name: 'Student Home' }).click();
    await expect(page).toHaveURL('/dashboard/studentHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hi, Welcome ${studentB.name}`);

    // The class both students took is B's too; anything else of A's was a leak.
    const leaked = (await leaks(page)).filter((marker) => !titlesB.includes(marker));
    expect(leaked).toEqual([]);
  });
});
