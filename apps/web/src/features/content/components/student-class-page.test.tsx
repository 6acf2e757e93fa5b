import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { buy, deviceOf, enroll, signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { StudentClassPage } from './student-class-page.tsx';

/**
 * A class's page for its student (myEnrollClass/:id), against the real server: a student who has
 * not paid is answered 409 "not paid" (DESIGN §3, as for a review) and the page says so, with a
 * way to the class instead of a retry.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

function renderPage(classId: string) {
  renderSignedInPage(queryClient, {
    path: `${paths.dashboard.myEnrollClass}/${classId}`,
    element: <StudentClassPage classId={classId} />,
  });
}

describe('StudentClassPage', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('tells a student whose enrollment is not paid that only paying students open the content', async () => {
    const student = await signUp(browser.server, 'Una Unpaid');
    const device = await deviceOf(browser.server, student);
    await enroll(device, ['Ann’s pottery']);
    const classId = browser.server.classes['Ann’s pottery'];
    const answer = await device.call<{ error: { code: string; message: string } }>(
      'GET',
      `/api/classes/${classId}/content`,
    );
    expect([answer.status, answer.body.error]).toEqual([409, { code: 'conflict', message: CONTENT_MESSAGES.notPaid }]);

    await browser.signIn(student);
    renderPage(classId);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CONTENT_MESSAGES.notPaid);
    // A retry would be refused the same way: the way on is the class itself.
    expect(screen.getByRole('link', { name: 'See the class' }).getAttribute('href')).toBe(paths.classPage(classId));
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows the class to the student who paid', async () => {
    const student = await signUp(browser.server, 'Pia Paid');
    await buy(await deviceOf(browser.server, student), ['Ink drawing']);
    await browser.signIn(student);
    renderPage(browser.server.classes['Ink drawing']);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ink drawing' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
