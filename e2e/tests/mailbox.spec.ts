import { expect, test } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, logIn, newUser } from '../fixtures/app.ts';
import { apiSession, dashboardMenu, expectLoaded } from '../fixtures/dashboard.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/**
 * Accounts and e-mail issue §1: with no SMTP server (the embedded default) mail waits in the
 * outbox, and an admin reads it in the dashboard's Mailbox and can follow its link.
 */
test('an admin decides an application and reads the applicant’s e-mail in the mailbox', async ({
  page,
  baseURL,
  browser,
}) => {
  const applicant = newUser('mail');
  const api = await apiSession(baseURL!, applicant.email, applicant.password, applicant);
  // Applying needs a verified address (issue 19 §2): follow the link from the mail.
  await verifyEmailViaMailbox(baseURL!, applicant.email);
  const applied = await api.post('/api/teachers/teacher-requests', {
    data: { experience: 'beginner', title: 'Mail reader', category: 'graphic-design' },
  });
  expect(applied.ok()).toBe(true);
  const { insertedId } = (await applied.json()) as { insertedId: string };
  await api.dispose();

  const admin = await apiSession(baseURL!, DEMO.admin, DEMO_PASSWORD);
  expect((await admin.patch(`/api/teachers/teacher-requests/${insertedId}/approve`)).ok()).toBe(true);
  await admin.dispose();

  await logIn(page, DEMO.admin);
  await page.goto('/dashboard/adminHome');
  await dashboardMenu(page).getByRole('link', { name: 'Mailbox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mailbox' })).toBeVisible();
  await expectLoaded(page);
  const mail = page.getByRole('listitem').filter({ hasText: applicant.email }).first();
  await mail.getByText('You can teach on SkillHive now — SkillHive').click();
  const link = mail.getByRole('link', { name: /\/dashboard\/addClasses$/ });
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  expect(href).toBe(`${baseURL}/dashboard/addClasses`);

  // The applicant, a teacher now, follows the link from the mail.
  const context = await browser.newContext();
  const applicantPage = await context.newPage();
  await logIn(applicantPage, applicant.email, applicant.password);
  await applicantPage.goto(href!);
  await expect(applicantPage.getByRole('heading', { level: 1 })).toContainText(/class/i);
  await expect(applicantPage).toHaveURL(/\/dashboard\/addClasses$/);
  await context.close();
});
