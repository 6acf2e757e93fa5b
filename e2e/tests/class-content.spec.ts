import { expect, test, uniqueStamp, type Arrange, type ArrangedClass, type Person } from '../fixtures/arrange.ts';
import {
  expectLoaded,
  expectNoAxeViolationsInBothThemes,
  expectNoHorizontalOverflow,
  expectReady,
} from '../fixtures/dashboard.ts';
import { mailLink } from '../fixtures/mailbox.ts';

/** A small, well-formed PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A start half an hour ago, as the session form's local date and time (in UTC). */
function halfAnHourAgo(): string {
  return new Date(Date.now() - 30 * 60_000).toISOString().slice(0, 16);
}

/**
 * Class content (spec §2 my-class/:id and myEnrollClass/:id): a teacher adds a session and a PDF to
 * a class and publishes them; a student who paid opens the class, downloads the PDF and marks
 * progress; the teacher and the admin see the progress.
 */

/** A new teacher's accepted class, with a title no seeded search term matches. */
async function teacherWithClass(arrange: Arrange): Promise<{ teacher: Person; item: ArrangedClass }> {
  const teacher = await arrange.teacher();
  const item = await arrange.acceptedClass(teacher, { title: `Live class ${uniqueStamp()}`, price: 19 });
  return { teacher, item };
}

/** As the class's teacher, through the API: a published session and a published PDF. */
async function publishContent(teacher: Person, classId: string): Promise<void> {
  const session = await teacher.api.post(`/api/classes/${classId}/sessions`, {
    data: {
      title: 'Live kick-off',
      startsAt: halfAnHourAgo(),
      timeZone: 'UTC',
      durationMinutes: 120,
      meetingUrl: 'https://meet.example.test/kick-off',
    },
  });
  expect(session.status(), await session.text()).toBe(201);
  const { _id: sessionId } = (await session.json()) as { _id: string };
  const sessionPublished = await teacher.api.post(`/api/class-sessions/${sessionId}/publish`, {
    data: { published: true },
  });
  expect(sessionPublished.ok(), await sessionPublished.text()).toBe(true);

  const material = await teacher.api.post(`/api/classes/${classId}/materials/file`, {
    multipart: {
      title: 'Week 1 notes',
      file: { name: 'week-1.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  expect(material.status(), await material.text()).toBe(201);
  const { _id: materialId } = (await material.json()) as { _id: string };
  const materialPublished = await teacher.api.post(`/api/materials/${materialId}/publish`, {
    data: { published: true },
  });
  expect(materialPublished.ok(), await materialPublished.text()).toBe(true);
}

test.describe('class content', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a teacher adds a session and a PDF to their class and publishes both', async ({ page, arrange }) => {
    const { teacher, item } = await teacherWithClass(arrange);
    await arrange.signIn(page, teacher);

    // A session that started half an hour ago (UTC), and a PDF: drafts until published.
    await page.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(page);
    const editor = page.getByRole('region', { name: 'Sessions and materials' });
    await expect(editor).toBeVisible();
    await editor.getByText('Add a session').click();
    const sessionForm = editor.getByRole('form', { name: 'Add a session' });
    await sessionForm.getByLabel('Session title').fill('Live kick-off');
    await sessionForm.getByLabel('Starts at').fill(halfAnHourAgo());
    await sessionForm.getByLabel('Time zone').fill('UTC');
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
  });

  test('a student who paid joins, downloads the PDF and marks progress; the teacher and the admin see it', async ({
    page,
    browser,
    baseURL,
    arrange,
  }) => {
    const [{ teacher, item }, student, admin] = await Promise.all([
      teacherWithClass(arrange),
      arrange.student('content'),
      arrange.admin(),
    ]);
    await publishContent(teacher, item.id);
    await arrange.paidEnrollment(student, [item.id]);

    // The student opens the class from My Enrolled Classes.
    await arrange.signIn(page, student);
    await page.goto('/dashboard/myEnrollClass');
    await page.getByRole('article', { name: item.title }).getByRole('link', { name: 'Open class' }).click();
    await expect(page).toHaveURL(`/dashboard/myEnrollClass/${item.id}`);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();

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
    await expectReady(page);
    await expect(
      page.getByTestId('student-session').filter({ hasText: 'Live kick-off' }).getByRole('checkbox'),
    ).toBeChecked();
    // Usable at 360 px.
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalOverflow(page);

    // The teacher sees the student's progress on the class page, also at 360 px.
    const teacherContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
    try {
      const teacherPage = await teacherContext.newPage();
      await arrange.signIn(teacherPage, teacher);
      await teacherPage.goto(`/dashboard/my-class/${item.id}`);
      await expectLoaded(teacherPage);
      const row = teacherPage
        .getByRole('table', { name: 'Progress per student' })
        .getByRole('row', { name: student.name });
      await expect(row).toContainText('1 / 1');
      await expect(row).toContainText('100%');
      await teacherPage.setViewportSize({ width: 360, height: 800 });
      await expectNoHorizontalOverflow(teacherPage);
    } finally {
      await teacherContext.close();
    }

    // The admin sees the class's progress on seeProgressDetails.
    const adminContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
    try {
      const adminPage = await adminContext.newPage();
      await arrange.signIn(adminPage, admin);
      await adminPage.goto(`/dashboard/seeProgressDetails/${item.id}`);
      await expectLoaded(adminPage);
      await expect(adminPage.getByText('Sessions held')).toBeVisible();
      await expect(adminPage.getByText('Average completion')).toBeVisible();
      await expect(adminPage.getByText('100%')).toBeVisible();
    } finally {
      await adminContext.close();
    }
  });

  // Axe apart from the journeys above, one screen a test: each screen takes two passes of axe.
  test('a teacher announces to the class; the student reads it on the class page and gets its mail', async ({
    page,
    browser,
    baseURL,
    arrange,
  }) => {
    const { teacher, item } = await teacherWithClass(arrange);
    const student = await arrange.student('announced');
    await arrange.paidEnrollment(student, [item.id]);
    const text = `Room change ${uniqueStamp()}: we meet in room 2 from now on.`;

    await arrange.signIn(page, teacher);
    await page.goto(`/dashboard/my-class/${item.id}`);
    await expectLoaded(page);
    const panel = page.getByRole('region', { name: 'Announcements' });
    // An empty one says what is missing, under the field.
    await panel.getByRole('button', { name: 'Send announcement' }).click();
    await expect(panel.getByText('Write the announcement')).toBeVisible();
    await panel.getByLabel('Announcement to your students').fill(text);
    await panel.getByRole('button', { name: 'Send announcement' }).click();
    await expect(page.getByText('Announcement sent to 1 student.')).toBeVisible();
    await expect(panel.getByRole('listitem').filter({ hasText: text })).toContainText('the whole class, 1 student');
    await expect(panel.getByLabel('Announcement to your students')).toHaveValue('');

    const studentContext = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
    try {
      const studentPage = await studentContext.newPage();
      await arrange.signIn(studentPage, student);
      await studentPage.goto(`/dashboard/myEnrollClass/${item.id}`);
      await expectLoaded(studentPage);
      await expect(studentPage.getByRole('region', { name: 'Announcements' }).getByText(text)).toBeVisible();
      await expectNoAxeViolationsInBothThemes(studentPage);
    } finally {
      await studentContext.close();
    }
    // The mail leads back to the class page.
    const link = await mailLink(baseURL!, student.email, 'announcement');
    expect(link).toContain(`/dashboard/myEnrollClass/${item.id}`);
  });

  test('axe: the teacher’s class page with a published session and PDF, light and dark', async ({ page, arrange }) => {
    const { teacher, item } = await teacherWithClass(arrange);
    await publishContent(teacher, item.id);
    await arrange.signIn(page, teacher);
    await page.goto(`/dashboard/my-class/${item.id}`);
    await expectReady(page);
    const editor = page.getByRole('region', { name: 'Sessions and materials' });
    await expect(editor.getByTestId('session-item').getByText('Published', { exact: true })).toBeVisible();
    await expect(editor.getByTestId('material-item').getByText('Published', { exact: true })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('axe: the student’s class page with a session and a PDF, light and dark', async ({ page, arrange }) => {
    const [{ teacher, item }, student] = await Promise.all([teacherWithClass(arrange), arrange.student('content')]);
    await publishContent(teacher, item.id);
    await arrange.paidEnrollment(student, [item.id]);
    await arrange.signIn(page, student);
    await page.goto(`/dashboard/myEnrollClass/${item.id}`);
    await expectReady(page);
    await expect(page.getByTestId('student-material').filter({ hasText: 'Week 1 notes' })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });
});
