import { expect, test } from '../fixtures/arrange.ts';
import { dashboardMenu, expectReady, seekInPagedList } from '../fixtures/dashboard.ts';

/**
 * With no SMTP server (the embedded default) mail waits in the outbox, and an admin reads it in
 * the dashboard's Mailbox and can follow its link.
 */
test('an admin decides an application and reads the applicant’s e-mail in the mailbox', async ({
  page,
  baseURL,
  browser,
  arrange,
}) => {
  // Applying needs a verified address: the arranged applicant followed the link of their mail.
  const [applicant, admin] = await Promise.all([arrange.user('mail'), arrange.admin('mail-admin')]);
  const requestId = await arrange.applyToTeach(applicant, { title: 'Mail reader', category: 'graphic-design' });
  const approved = await admin.api.patch(`/api/teachers/teacher-requests/${requestId}/approve`);
  expect(approved.ok(), await approved.text()).toBe(true);

  await arrange.signIn(page, admin);
  await page.goto('/dashboard/adminHome');
  await expectReady(page);
  await dashboardMenu(page).getByRole('link', { name: 'Mailbox' }).click();
  await expect(page).toHaveURL('/dashboard/mailbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Mailbox' })).toBeVisible();
  const mails = page.getByRole('list', { name: 'E-mails' });
  const subject = 'You can teach on SkillHive now — SkillHive';
  const mail = mails.getByRole('listitem').filter({ hasText: applicant.email }).filter({ hasText: subject });
  // Other tests write mail meanwhile, newest first: it may have moved on to the next page.
  await seekInPagedList(page, '/dashboard/mailbox', mails, mail);
  await mail.getByText(subject).click();
  const link = mail.getByRole('link', { name: /\/dashboard\/addClasses$/ });
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  expect(href).toBe(`${baseURL}/dashboard/addClasses`);

  // The applicant, a teacher now, follows the link from the mail.
  const context = await browser.newContext({ baseURL });
  const applicantPage = await context.newPage();
  await arrange.signIn(applicantPage, applicant);
  await applicantPage.goto(href!);
  await expect(applicantPage.getByRole('heading', { level: 1 })).toContainText(/class/i);
  await expect(applicantPage).toHaveURL(/\/dashboard\/addClasses$/);
  await context.close();
});
