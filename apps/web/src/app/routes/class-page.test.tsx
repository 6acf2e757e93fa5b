import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { PublicSection } from '@skillhive/shared/contracts/sections';
import { createQueryClient } from '../../lib/query-client.ts';
import { paths } from '../../config/paths.ts';
import { formatSessionStart, viewerTimeZone } from '../../lib/session-time.ts';
import { AuthProvider } from '../../features/auth/components/auth-provider.tsx';
import { browserOnRealServer } from '../../test/browser.ts';
import { Device, deviceOf, signUp } from '../../test/real-api.ts';
import { Component as ClassPageRoute } from './class-page.tsx';

/**
 * The public class page's schedule (decision 042), against the real server: each section with its
 * deadline in the viewer's zone (named), its seats left and "Full"; Pay Now enrolls in the section
 * picked, and a full section cannot be picked.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

const sectionForm = (capacity: number) => ({
  timeZone: 'Asia/Tokyo',
  capacity,
  minimum: '',
  enrollOpensAt: '',
  enrollClosesAt: '2099-01-15T09:00',
});

describe('the class page schedule', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('shows seats left, the deadline in your zone and "Full"; Pay Now enrolls in the section picked', async () => {
    const server = browser.server;
    const classId = server.classes['Ben’s bread'];
    const teacher = await new Device(server).signIn(server.teacher.email, server.teacher.password);
    // The roomy section comes first: other suites carting this class without naming one land there.
    const roomy = await teacher.ok<{ _id: string }>('POST', `/api/classes/${classId}/sections`, sectionForm(1000));
    const tiny = await teacher.ok<{ _id: string }>('POST', `/api/classes/${classId}/sections`, sectionForm(1));
    const picked = await teacher.ok<{ _id: string }>('POST', `/api/classes/${classId}/sections`, sectionForm(5));
    const holder = await deviceOf(server, await signUp(server, 'Hana Holder'));
    await holder.ok('POST', '/api/enrolled', { enrollId: classId, sectionId: tiny._id });

    const buyer = await signUp(server, 'Bo Buyer');
    const device = await deviceOf(server, buyer);
    await browser.signIn(buyer);
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[`/classes/${classId}`]}>
          <AuthProvider>
            <Routes>
              <Route path="/classes/:id" element={<ClassPageRoute />} />
              <Route path={paths.dashboard.payment} element={<h1>Payment page</h1>} />
            </Routes>
          </AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );

    // The class, then its schedule, from the real server (a busy machine may take seconds).
    const schedule = await screen.findByTestId('class-schedule', {}, { timeout: 15_000 });
    expect(within(schedule).getByText(`Times are shown in your time zone (${viewerTimeZone()}).`)).toBeTruthy();
    const items = await within(schedule).findAllByTestId('schedule-section');
    const itemOf = (id: string) => items.find((item) => within(item).getByRole('radio').getAttribute('value') === id)!;
    const full = itemOf(tiny._id);
    expect(within(full).getByText('Full')).toBeTruthy();
    expect(within(full).getByText(/No seats left/)).toBeTruthy();
    expect((within(full).getByRole('radio') as HTMLInputElement).disabled).toBe(true);
    // The deadline (09:00 in Tokyo) reads in the viewer's zone, the zone named.
    const deadline = formatSessionStart('2099-01-15T00:00:00.000Z');
    expect(within(full).getByText(new RegExp(`Enroll by ${deadline}`))).toBeTruthy();
    const open = itemOf(roomy._id);
    expect(within(open).getByText(/seats left/)).toBeTruthy();
    expect((within(open).getByRole('radio') as HTMLInputElement).checked).toBe(true);
    const chosen = itemOf(picked._id);
    expect(within(chosen).getByText(/^5 seats left/)).toBeTruthy();
    await act(async () => fireEvent.click(within(chosen).getByRole('radio')));
    expect((within(chosen).getByRole('radio') as HTMLInputElement).checked).toBe(true);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Pay Now' })));
    expect(await screen.findByRole('heading', { name: 'Payment page' }, { timeout: 15_000 })).toBeTruthy();
    // The server holds the buyer a seat of the section picked: one seat fewer there.
    const after = await device.ok<PublicSection[]>('GET', `/api/classes/${classId}/schedule`);
    const byId = new Map(after.map((section) => [section._id, section]));
    expect(byId.get(picked._id)).toMatchObject({ seatsLeft: 4, full: false });
    expect(byId.get(tiny._id)).toMatchObject({ seatsLeft: 0, full: true });
    const cart = await device.ok<{ enrollId: string; status: string }[]>(
      'GET',
      `/api/enrolled/${encodeURIComponent(buyer.email)}?status=pending`,
    );
    expect(cart.map((line) => line.enrollId)).toEqual([classId]);
  });
});
