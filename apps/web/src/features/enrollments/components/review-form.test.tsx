import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ACCESS_TOKEN_KEY, REVIEW_DETAILS_MAX } from '@skillhive/shared/rules/constants';
import type { Review } from '@skillhive/shared/contracts/reviews';
import { REVIEW_MESSAGES } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { buy, Device, deviceOf, signUp, type Person } from '../../../test/real-api.ts';
import { ReviewForm } from './review-form.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;
let reviewers = 0;

/** The class reviewed: "Watercolour basics" on the real server. */
const classId = () => browser.server.classes['Watercolour basics'];

function renderForm(initial: { rating: number; details: string } | null = null) {
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewForm classId={classId()} classTitle="Watercolour basics" initial={initial} />
    </QueryClientProvider>,
  );
  return screen.getByRole('form', { name: 'Review Watercolour basics' });
}

/**
 * A student signed in in this browser, with the token the app keeps (`access-token`); one who
 * paid for the class unless `paid: false`.
 */
async function signedInStudent(options: { paid?: boolean } = {}): Promise<Person> {
  reviewers += 1;
  const student = await signUp(browser.server, `Rae Reviewer ${reviewers}`);
  if (options.paid !== false) await buy(await deviceOf(browser.server, student), ['Watercolour basics']);
  await browser.signIn(student);
  const { body } = await browser.request<{ token: string }>('POST', '/api/jwt', { email: student.email });
  window.localStorage.setItem(ACCESS_TOKEN_KEY, body.token);
  return student;
}

/** The class's reviews as anyone reads them (GET /api/reviews?classId=). */
async function reviewsOfClass(): Promise<Review[]> {
  return new Device(browser.server).ok<Review[]>('GET', `/api/reviews?classId=${classId()}&limit=100`);
}

describe('ReviewForm', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('asks for a rating before sending anything', async () => {
    await signedInStudent();
    const sentBefore = browser.requests.length;
    const form = renderForm();
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Submit review' })));
    expect(await within(form).findByText(REVIEW_MESSAGES.ratingRequired)).toBeTruthy();
    expect(browser.requests.slice(sentBefore)).toEqual([]);
  });

  it('shows the shared message for details over the limit', async () => {
    await signedInStudent();
    const sentBefore = browser.requests.length;
    const form = renderForm();
    fireEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    fireEvent.change(within(form).getByLabelText('Your review'), {
      target: { value: 'x'.repeat(REVIEW_DETAILS_MAX + 1) },
    });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Submit review' })));
    expect(await within(form).findByText(REVIEW_MESSAGES.detailsTooLong)).toBeTruthy();
    expect(browser.requests.slice(sentBefore)).toEqual([]);
  });

  it('sends the class, the chosen rating and the trimmed details; the button waits for the answer', async () => {
    const student = await signedInStudent();
    const release = browser.hold((method, path) => method === 'POST' && path === '/api/reviews');
    const form = renderForm();
    fireEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
    fireEvent.change(within(form).getByLabelText('Your review'), { target: { value: '  Clear and kind.  ' } });
    const submit = within(form).getByRole('button', { name: 'Submit review' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(false);
    await act(async () => fireEvent.click(submit));

    await waitFor(() => expect(browser.requests).toContain('POST /api/reviews'));
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    await act(async () => release());
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Update review' })).toBeTruthy());
    expect((within(form).getByRole('button', { name: 'Update review' }) as HTMLButtonElement).disabled).toBe(false);
    // What the server stored: this student's review of this class, with the rating and trimmed text.
    expect((await reviewsOfClass()).filter((review) => review.name === student.name)).toEqual([
      expect.objectContaining({ classId: classId(), rating: 5, details: 'Clear and kind.' }),
    ]);
  });

  it('opens filled in with the earlier review, and saving it edits that review', async () => {
    const student = await signedInStudent();
    const device = await deviceOf(browser.server, student);
    await device.ok('POST', '/api/reviews', { classId: classId(), rating: 4, details: 'Good start.' });
    const form = renderForm({ rating: 4, details: 'Good start.' });
    expect((within(form).getByRole('radio', { name: '4 stars' }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByLabelText('Your review') as HTMLTextAreaElement).value).toBe('Good start.');
    fireEvent.click(within(form).getByRole('radio', { name: '2 stars' }));
    fireEvent.change(within(form).getByLabelText('Your review'), { target: { value: 'It got too fast.' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Update review' })));
    await waitFor(async () =>
      expect((await reviewsOfClass()).filter((review) => review.name === student.name)).toEqual([
        expect.objectContaining({ rating: 2, details: 'It got too fast.' }),
      ]),
    );
  });

  it("shows the server's refusal", async () => {
    // Signed in, but has not paid for the class: the server refuses the review.
    const student = await signedInStudent({ paid: false });
    const form = renderForm();
    fireEvent.click(within(form).getByRole('radio', { name: '3 stars' }));
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Submit review' })));
    expect((await within(form).findByRole('alert')).textContent).toBe(REVIEW_MESSAGES.notPaid);
    expect((await reviewsOfClass()).filter((review) => review.name === student.name)).toEqual([]);
  });
});
