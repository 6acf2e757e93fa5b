import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { MyRefundRequests } from '@skillhive/shared/contracts/refunds';
import { REFUND_MESSAGES } from '@skillhive/shared/rules/refunds';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { buy, deviceOf, enroll, signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { MyEnrolledClasses } from './my-enrolled-classes.tsx';

/**
 * "Request a refund" on My Enrolled Classes, against the real server: offered on a
 * paid class within the window, asks for a reason with the shared message, then shows the state.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

describe('Request a refund', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('is offered on a paid class only; asks for a reason; then shows the request waiting', async () => {
    const student = await signUp(browser.server, 'Reni Refund');
    const device = await deviceOf(browser.server, student);
    await buy(device, ['Ink drawing']);
    await enroll(device, ['Ann’s pottery']);
    await browser.signIn(student);
    renderSignedInPage(queryClient, { path: paths.dashboard.myEnrollClass, element: <MyEnrolledClasses /> });

    const card = (await screen.findByRole('heading', { name: 'Ink drawing' })).closest('article')! as HTMLElement;
    const pending = screen.getByRole('heading', { name: 'Ann’s pottery' }).closest('article')! as HTMLElement;
    const requestButton = await within(card).findByRole('button', { name: 'Request a refund' });
    await act(async () => fireEvent.click(requestButton));
    expect(within(pending).queryByRole('button', { name: 'Request a refund' })).toBeNull();

    const dialog = await screen.findByRole('dialog', { name: 'Request a refund of “Ink drawing”?' });
    const sentBefore = browser.requests.length;
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Request refund' })));
    expect(await within(dialog).findByText(REFUND_MESSAGES.reasonRequired)).toBeTruthy();
    expect(browser.requests.slice(sentBefore)).not.toContain('POST /api/refund-requests');

    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  The schedule changed  ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Request refund' })));
    expect(await within(card).findByText('Refund requested: waiting for a decision.')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Request a refund' })).toBeNull();

    // What the server stored: one request, for that line, with the trimmed reason.
    const mine = await device.ok<MyRefundRequests>('GET', '/api/refund-requests/mine');
    expect(mine.requests).toEqual([
      expect.objectContaining({ title: 'Ink drawing', status: 'pending', reason: 'The schedule changed' }),
    ]);
  });
});
