import type { Page } from '@playwright/test';
import { expect, test, uniqueStamp } from '../fixtures/arrange.ts';
import { expectNoAxeViolations, expectReady, switchColorScheme } from '../fixtures/dashboard.ts';

/**
 * The admin's tables fit the screen (DataTable): at 1024, 1280 and 1920 px, light and dark, every
 * button of every admin page is inside the viewport and inside its table's box — no sideways
 * scroll — and no badge or button breaks over lines. Measured in the browser, on pages that hold
 * rows with actions (a pending refund request, teacher request and class are arranged).
 */

const ADMIN_PAGES = [
  '/dashboard/refunds',
  '/dashboard/teacherRequest',
  '/dashboard/allClasses',
  '/dashboard/users',
  '/dashboard/audit',
  '/dashboard/payouts',
  '/dashboard/reports',
] as const;

const WIDTHS = [1024, 1280, 1920] as const;

interface Misfit {
  what: string;
  why: string;
}

/** What does not fit on the page as it is drawn now: boxes past the viewport or their table, wrapped text. */
function misfitsOf(page: Page): Promise<Misfit[]> {
  return page.evaluate(() => {
    const found: { what: string; why: string }[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()} “${(el.textContent ?? '').trim().slice(0, 40)}”`;
    const viewport = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > viewport + 1)
      found.push({ what: 'page', why: `scrolls sideways (${document.documentElement.scrollWidth} > ${viewport})` });
    const main = document.querySelector('main');
    if (!main) return [{ what: 'page', why: 'no main' }];
    for (const el of main.querySelectorAll<HTMLElement>('button, .btn, .badge')) {
      if (!el.checkVisibility()) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < -1 || box.right > viewport + 1) found.push({ what: name(el), why: 'outside the viewport' });
      const frame = el.closest('[role="region"]');
      if (frame?.querySelector('table')) {
        const outer = frame.getBoundingClientRect();
        if (box.left < outer.left - 1 || box.right > outer.right + 1)
          found.push({ what: name(el), why: 'outside its table' });
        if (frame.scrollWidth > frame.clientWidth + 1) found.push({ what: name(frame), why: 'table scrolls sideways' });
      }
      // One line: the text's line boxes all sit on one row.
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) found.push({ what: name(el), why: `text on ${tops.size} lines` });
    }
    return found;
  });
}

test.describe('admin tables fit the screen', () => {
  test.use({ reducedMotion: 'reduce' });

  test('at 1024, 1280 and 1920 px, light and dark: actions inside, badges and buttons on one line (axe)', async ({
    page,
    arrange,
  }) => {
    test.setTimeout(240_000);
    const stamp = uniqueStamp();
    const [admin, teacher, student, applicant] = await Promise.all([
      arrange.admin('fit-admin'),
      arrange.teacher('fit-teacher'),
      arrange.student('fit-student'),
      arrange.user('fit-applicant'),
    ]);
    // Rows with actions on each page: a pending class, a teacher request, a refund request.
    const item = await arrange.acceptedClass(teacher, { title: `Fitting class ${stamp}` });
    await arrange.pendingClass(teacher, { title: `Pending fitting class with a rather long title ${stamp}` });
    await arrange.applyToTeach(applicant, { title: `Applied teacher ${stamp}`, experience: 'mid-level' });
    const enrollmentId = await arrange.cartLine(student, item.id);
    await arrange.paidEnrollment(student, []);
    const requested = await student.api.post('/api/refund-requests', {
      data: { enrollmentId, reason: 'The schedule changed and I can no longer attend the sessions' },
    });
    expect(requested.status(), await requested.text()).toBe(201);
    await arrange.signIn(page, admin);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ADMIN_PAGES) {
        await page.goto(path);
        await expectReady(page);
        for (const scheme of ['light', 'dark'] as const) {
          await switchColorScheme(page, scheme);
          expect(await misfitsOf(page), `${path} at ${width} px, ${scheme}`).toEqual([]);
        }
        // axe once per page (at the widest screen it reads every column as a table).
        if (width === 1920) await expectNoAxeViolations(page);
      }
    }
  });
});
