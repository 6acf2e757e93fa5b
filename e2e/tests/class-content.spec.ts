import { expect, test } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, logIn } from '../fixtures/app.ts';
import { payWithTestCard, signUpVerifiedStudent } from '../fixtures/checkout.ts';
import { adminApi } from '../fixtures/admin-api.ts';
import {
  apiSession,
  createClassVia,
  expectLoaded,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
} from '../fixtures/dashboard.ts';

/** A small, well-formed PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * Issue 21: a teacher adds a session and a PDF to a class and publishes them; a student pays with
 * the test gateway, opens the class, downloads the PDF and marks progress; the teacher and the
 * admin see the progress.
 */
test.describe('class content', () => {
  test.use({ reducedMotion: 'reduce' });

  test('teacher builds, student takes part, teacher and admin see progress', async ({ page, browser, baseURL }) => {
    test.setTimeout(180_000);
    // A fresh class of the demo teacher, accepted by the admin (arranged through the API).
    const title = `Live class ${Date.now().toString(36)}`;
    const teacherApi = await apiSession(baseURL!, DEMO.teacher, DEMO_PASSWORD);
    const classId = await createClassVia(teacherApi, title, 19);
    await teacherApi.dispose();
    const admin = await adminApi(baseURL!);
    const approved = await admin.patch(`/api/classes/class-requests/${classId}/approve`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    expect(approved.ok(), await approved.text()).toBe(true);
    await admin.dispose();

    // The teacher adds a session that started half an hour ago (UTC) and a PDF, and publishes both.
    const teacherContext = await browser.newContext({ baseURL: baseURL!, reducedMotion: 'reduce' });
    const teacher = await teacherContext.newPage();
    await logIn(teacher, DEMO.teacher);
    await teacher.goto(`/dashboard/my-class/${classId}`);
    await expectLoaded(teacher);
    const editor = teacher.getByRole('region', { name: 'Sessions and materials' });
    await expect(editor).toBeVisible();
    await editor.getByText('Add a session').click();
    const sessionForm = editor.getByRole('form', { name: 'Add a session' });
    await sessionForm.getByLabel('Session title').fill('Live kick-off');
    await sessionForm.getByLabel('Starts at').fill(new Date(Date.now() - 30 * 60_000).toISOString().slice(0, 16));
    await sessionForm.getByLabel('Time zone').selectOption('UTC');
    await sessionForm.getByLabel('Duration (minutes)').fill('120');
    await sessionForm.getByLabel('Meeting link').fill('https://meet.example.test/kick-off');
    await sessionForm.getByRole('button', { name: 'Add session' }).click();
    const sessionItem = editor.getByTestId('session-item').filter({ hasText: 'Live kick-off' });
    await expect(sessionItem.getByText('Draft', { exact: true })).toBeVisible();
    await sessionItem.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(sessionItem.getByText('Published', { exact: true })).toBeVisible();

    await editor.getByText('Upload a PDF or an image').click();
    const upload = editor.getByRole('form', { name: 'Upload a material' });
    await upload.getByLabel('Material title').fill('Week 1 notes');
    await upload
      .getByLabel('File (PDF or image)')
      .setInputFiles({ name: 'week-1.pdf', mimeType: 'application/pdf', buffer: PDF });
    await upload.getByRole('button', { name: 'Upload' }).click();
    const materialItem = editor.getByTestId('material-item').filter({ hasText: 'Week 1 notes' });
    await expect(materialItem.getByText('Draft', { exact: true })).toBeVisible();
    await materialItem.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(materialItem.getByText('Published', { exact: true })).toBeVisible();
    await expectNoAxeViolations(teacher);

    // A student signs up, pays with the test gateway and opens the class.
    const student = await signUpVerifiedStudent(page, baseURL!, 'content');
    await page.goto(`/dashboard/classDetails/${classId}`);
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL('/dashboard/payment');
    await payWithTestCard(page);
    await page.getByRole('article', { name: title }).getByRole('link', { name: 'Open class' }).click();
    await expect(page).toHaveURL(`/dashboard/myEnrollClass/${classId}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

    const session = page.getByTestId('student-session').filter({ hasText: 'Live kick-off' });
    await expect(session.getByRole('link', { name: 'Join the meeting' })).toHaveAttribute(
      'href',
      'https://meet.example.test/kick-off',
    );
    const material = page.getByTestId('student-material').filter({ hasText: 'Week 1 notes' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      material.getByRole('link', { name: /^Download week-1\.pdf/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('week-1.pdf');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).equals(PDF)).toBe(true);

    await session.getByRole('checkbox', { name: 'I attended this session' }).check();
    await expect(session.getByRole('checkbox', { name: 'I attended this session' })).toBeChecked();
    await material.getByRole('checkbox', { name: 'Done', exact: true }).check();
    await expect(material.getByRole('checkbox', { name: 'Done', exact: true })).toBeChecked();
    await page.reload();
    await expectLoaded(page);
    await expect(
      page.getByTestId('student-session').filter({ hasText: 'Live kick-off' }).getByRole('checkbox'),
    ).toBeChecked();
    await expectNoAxeViolations(page);
    // Usable at 360 px.
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalOverflow(page);

    // The teacher sees the student's progress on the class page.
    await teacher.reload();
    await expectLoaded(teacher);
    const row = teacher.getByRole('table', { name: 'Progress per student' }).getByRole('row', { name: student.name });
    await expect(row).toContainText('1 / 1');
    await expect(row).toContainText('100%');
    await teacher.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalOverflow(teacher);
    await teacherContext.close();

    // The admin sees the class's progress on seeProgressDetails.
    const adminContext = await browser.newContext({ baseURL: baseURL!, reducedMotion: 'reduce' });
    const adminPage = await adminContext.newPage();
    await logIn(adminPage, DEMO.admin);
    await adminPage.goto(`/dashboard/seeProgressDetails/${classId}`);
    await expectLoaded(adminPage);
    await expect(adminPage.getByText('Sessions held')).toBeVisible();
    await expect(adminPage.getByText('Average completion')).toBeVisible();
    await expect(adminPage.getByText('100%')).toBeVisible();
    await adminContext.close();
  });
});
