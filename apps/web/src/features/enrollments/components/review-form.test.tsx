import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { REVIEW_DETAILS_MAX } from '@skillhive/shared/rules/constants';
import { REVIEW_MESSAGES } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { apiError, createFakeApi, json, type FakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { ReviewForm } from './review-form.tsx';

let api: FakeApi;
let queryClient: QueryClient;
let received: unknown[];

function renderForm() {
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewForm classId="class-1" classTitle="Watercolour basics" />
    </QueryClientProvider>,
  );
  return screen.getByRole('form', { name: 'Review Watercolour basics' });
}

describe('ReviewForm', () => {
  beforeEach(() => {
    received = [];
    api = createFakeApi().on('POST', '/api/reviews', ({ body }: FakeRequest) => {
      received.push(body);
      return json({ insertedId: 'review-1', created: true }, { status: 201 });
    });
    vi.stubGlobal('fetch', api.fetch);
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('asks for a rating before sending anything', async () => {
    const form = renderForm();
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Submit review' })));
    expect(await within(form).findByText(REVIEW_MESSAGES.ratingRequired)).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('shows the shared message for details over the limit', async () => {
    const form = renderForm();
    fireEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    fireEvent.change(within(form).getByLabelText('Your review'), {
      target: { value: 'x'.repeat(REVIEW_DETAILS_MAX + 1) },
    });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Submit review' })));
    expect(await within(form).findByText(REVIEW_MESSAGES.detailsTooLong)).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('sends the class, the chosen rating and the trimmed details; the button waits for the answer', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.on('POST', '/api/reviews', async ({ body }) => {
      received.push(body);
      await held;
      return json({ insertedId: 'review-1', created: true }, { status: 201 });
    });
    const form = renderForm();
    fireEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
    fireEvent.change(within(form).getByLabelText('Your review'), { target: { value: '  Clear and kind.  ' } });
    const submit = within(form).getByRole('button', { name: 'Submit review' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(false);
    await act(async () => fireEvent.click(submit));

    await waitFor(() => expect(received).toEqual([{ classId: 'class-1', rating: 5, details: 'Clear and kind.' }]));
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    await act(async () => release());
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Update review' })).toBeTruthy());
    expect((within(form).getByRole('button', { name: 'Update review' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows the server's refusal", async () => {
    api.on('POST', '/api/reviews', () => apiError(409, 'conflict', REVIEW_MESSAGES.notPaid));
    const form = renderForm();
    fireEvent.click(within(form).getByRole('radio', { name: '3 stars' }));
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Submit review' })));
    expect((await within(form).findByRole('alert')).textContent).toBe(REVIEW_MESSAGES.notPaid);
  });
});
