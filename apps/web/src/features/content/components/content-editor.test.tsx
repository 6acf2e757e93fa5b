import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ClassContent } from '@skillhive/shared/contracts/content';
import type { PublicSection } from '@skillhive/shared/contracts/sections';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { ACCESS_TOKEN_KEY } from '@skillhive/shared/rules/constants';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device } from '../../../test/real-api.ts';
import { renderSignedInDataRoute } from '../../../test/render-signed-in-page.tsx';
import { ContentEditor } from './content-editor.tsx';

/**
 * The teacher's editor against the real server: "Repeat weekly" adds N drafts in one request (the
 * shared limit refused in the form before any request), the time zone is picked by its current
 * IANA name, and "Publish all" asks first, publishes every draft and says how many.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;
const classId = () => browser.server.classes['Ink drawing'];

async function signedInTeacher() {
  await browser.signIn(browser.server.teacher);
  const { body } = await browser.request<{ token: string }>('POST', '/api/jwt', {
    email: browser.server.teacher.email,
  });
  window.localStorage.setItem(ACCESS_TOKEN_KEY, body.token);
}

function renderEditor() {
  // The editor asks before unsaved edits are left (useBlocker): a data router, as the app's.
  renderSignedInDataRoute(queryClient, <ContentEditor classId={classId()} />);
}

describe('ContentEditor: repeat weekly and publish all', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('adds three weekly drafts in one request, then publishes them all after asking', async () => {
    await signedInTeacher();
    renderEditor();
    const form = await screen.findByRole('form', { name: 'Add a session' }, { timeout: 15_000 });
    fireEvent.click(screen.getByText('Add a session', { selector: 'summary' }));
    fireEvent.change(within(form).getByLabelText('Session title'), { target: { value: 'Weekly ink' } });
    fireEvent.change(within(form).getByLabelText('Starts at'), { target: { value: '2099-01-05T18:00' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Time zone' }), {
      target: { value: 'Asia/Kolkata' },
    });
    fireEvent.change(within(form).getByLabelText('Meeting link'), {
      target: { value: 'https://meet.example.test/ink' },
    });
    const weeks = within(form).getByLabelText('Repeat weekly (number of sessions)');

    // Beyond the limit: the shared message, and no request.
    fireEvent.change(weeks, { target: { value: '53' } });
    const sentBefore = browser.requests.length;
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Add session' })));
    expect(await within(form).findByText(CONTENT_MESSAGES.weeksRange)).toBeTruthy();
    expect(browser.requests.slice(sentBefore).filter((r) => r.startsWith('POST'))).toEqual([]);

    fireEvent.change(weeks, { target: { value: '3' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Add session' })));
    const sessions = screen.getByRole('list', { name: 'Sessions' });
    expect(await within(sessions).findAllByText('Weekly ink', {}, { timeout: 10_000 })).toHaveLength(3);
    expect(browser.requests.filter((r) => r === `POST /api/classes/${classId()}/sessions/weekly`)).toHaveLength(1);
    const teacher = await new Device(browser.server).signIn(
      browser.server.teacher.email,
      browser.server.teacher.password,
    );
    const content = await teacher.ok<ClassContent>('GET', `/api/classes/${classId()}/content`);
    const ink = content.sessions.filter((s) => s.title === 'Weekly ink');
    expect(ink.map((s) => [s.localStart, s.timeZone, s.published])).toEqual([
      ['2099-01-05T18:00', 'Asia/Kolkata', false],
      ['2099-01-12T18:00', 'Asia/Kolkata', false],
      ['2099-01-19T18:00', 'Asia/Kolkata', false],
    ]);

    // Publish all: asked first, naming how many; then the answer says how many were published.
    expect(await screen.findByText('3 sessions are drafts: students do not see them yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Publish all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish 3 sessions?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, publish' })));
    expect(
      await screen.findByText('Published 3 sessions.', { selector: '[role="status"]' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(await screen.findByText('Everything is published.')).toBeTruthy();
    const schedule = await new Device(browser.server).ok<PublicSection[]>('GET', `/api/classes/${classId()}/schedule`);
    expect(schedule.flatMap((section) => section.sessions.filter((s) => s.title === 'Weekly ink'))).toHaveLength(3);
  });
});
