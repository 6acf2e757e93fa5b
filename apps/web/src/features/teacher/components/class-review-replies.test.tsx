import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { Review } from '@skillhive/shared/contracts/reviews';
import { ACCESS_TOKEN_KEY } from '@skillhive/shared/rules/constants';
import { REVIEW_MESSAGES } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { buy, Device, deviceOf, signUp } from '../../../test/real-api.ts';
import { ClassReviewReplies } from './class-review-replies.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;

/** The class reviewed: "Ben’s bread", taught by the real server's teacher. */
const classId = () => browser.server.classes['Ben’s bread'];

/** The class's teacher signed in in this browser, with the token the app keeps. */
async function signedInTeacher() {
  await browser.signIn(browser.server.teacher);
  const { body } = await browser.request<{ token: string }>('POST', '/api/jwt', {
    email: browser.server.teacher.email,
  });
  window.localStorage.setItem(ACCESS_TOKEN_KEY, body.token);
}

async function replyOf(reviewerName: string) {
  const reviews = await new Device(browser.server).ok<Review[]>('GET', `/api/reviews?classId=${classId()}&limit=100`);
  return reviews.find((review) => review.name === reviewerName)?.reply ?? null;
}

describe('ClassReviewReplies (decision 046)', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('lets the teacher reply to a review once, shows the reply, then edits it', async () => {
    const student = await signUp(browser.server, 'Rita Reviewer');
    const device = await deviceOf(browser.server, student);
    await buy(device, ['Ben’s bread']);
    await device.ok('POST', '/api/reviews', { classId: classId(), rating: 4, details: 'Tasty but long.' });
    await signedInTeacher();

    render(
      <QueryClientProvider client={queryClient}>
        <ClassReviewReplies classId={classId()} />
      </QueryClientProvider>,
    );
    const field = await screen.findByLabelText('Your reply to Rita Reviewer');
    const item = field.closest('li') as HTMLElement;
    expect(within(item).getByText('Tasty but long.')).toBeTruthy();

    // An empty reply is refused in the form, with the shared message, before any request.
    const sentBefore = browser.requests.length;
    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Reply' })));
    expect(await within(item).findByText(REVIEW_MESSAGES.replyRequired)).toBeTruthy();
    expect(browser.requests.slice(sentBefore)).toEqual([]);

    fireEvent.change(field, { target: { value: '  Thanks! <b>Shorter</b> soon.  ' } });
    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Reply' })));
    // Shown as text under the review, labelled as the teacher's.
    const label = await within(item).findByText('Reply from the teacher', {}, { timeout: 5000 });
    expect(label.nextElementSibling?.textContent).toBe('Thanks! <b>Shorter</b> soon.');
    expect(within(item).queryByRole('textbox')).toBeNull();
    expect(await replyOf('Rita Reviewer')).toMatchObject({ text: 'Thanks! <b>Shorter</b> soon.' });

    fireEvent.click(within(item).getByRole('button', { name: /^Edit reply/ }));
    const editField = within(item).getByLabelText('Your reply to Rita Reviewer');
    expect((editField as HTMLTextAreaElement).value).toBe('Thanks! <b>Shorter</b> soon.');
    fireEvent.change(editField, { target: { value: 'Thanks! Shorter from next week.' } });
    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Save reply' })));
    expect(
      await within(item).findByText('Thanks! Shorter from next week.', { selector: 'p' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(await replyOf('Rita Reviewer')).toMatchObject({ text: 'Thanks! Shorter from next week.' });
  });
});
