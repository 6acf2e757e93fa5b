import { expect, test, type Page } from '@playwright/test';
import { DEMO, accountButton, fillLogin, logIn, logOut } from '../fixtures/app.ts';
import { dashboardMenu } from '../fixtures/dashboard.ts';

/** The second seeded student (apps/server/src/db/seed.ts). */
const OTHER_STUDENT = 'student2@skillhive.test';

/** The titles on the enrolled-classes page (every page of it is small: 3 paid + pending). */
async function enrolledTitles(page: Page): Promise<string[]> {
  await dashboardMenu(page).getByRole('link', { name: 'My Enrolled Classes' }).click();
  await expect(page).toHaveURL(/\/dashboard\/myEnrollClass/);
  const titles = page.locator('main article h2');
  await expect(titles.first()).toBeVisible();
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
  test("never shows the previous user's name, e-mail or classes", async ({ page }) => {
    test.setTimeout(90_000);

    // Student A: their home, enrolled classes and profile are loaded into this tab's memory.
    await logIn(page, DEMO.student);
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/dashboard/studentHome');
    const greeting = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
    const nameA = greeting.replace(/^Hi, Welcome /, '').trim();
    expect(nameA).not.toBe('');
    const titlesA = await enrolledTitles(page);
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByText(DEMO.student).first()).toBeVisible();

    // Signed out and in again without a reload: whatever A left in memory could still render.
    await logOut(page);
    await watchFor(page, [nameA, DEMO.student, ...titlesA]);
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await expect(page).toHaveURL(/\/login/);
    await fillLogin(page, OTHER_STUDENT, 'Demo!Pass1');
    await expect(accountButton(page)).toBeVisible();
    expect(await accountButton(page).getAttribute('aria-label')).not.toContain(nameA);

    // Student B's pages, reached through the app's own links.
    await accountButton(page).click();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL('/dashboard/studentHome');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(greeting);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Hi, Welcome \S/);
    const titlesB = await enrolledTitles(page);
    await dashboardMenu(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByText(OTHER_STUDENT).first()).toBeVisible();
    await dashboardMenu(page).getByRole('link', { name: 'Student Home' }).click();
    await expect(page).toHaveURL('/dashboard/studentHome');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Hi, Welcome \S/);

    // A class both students took is B's too; anything else of A's was a leak.
    const leaked = (await leaks(page)).filter((marker) => !titlesB.includes(marker));
    expect(leaked).toEqual([]);
  });
});
