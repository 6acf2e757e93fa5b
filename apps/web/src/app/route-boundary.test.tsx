import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { RouteBoundary } from './route-boundary.tsx';

function Broken(): never {
  throw new Error('the page failed to render');
}

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <nav>
        <Link to="/fine">Fine</Link>
        <Link to="/broken">Broken</Link>
      </nav>
      <Routes>
        <Route
          element={
            <RouteBoundary>
              <Outlet />
            </RouteBoundary>
          }
        >
          <Route path="/broken" element={<Broken />} />
          <Route path="/fine" element={<h1>A fine page</h1>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('RouteBoundary', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows the error page in place of a page that throws, and the next navigation clears it', async () => {
    // React reports the caught error on the console; the page is what this test reads.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/broken');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');

    // The links outside the boundary still work, and the next page renders.
    fireEvent.click(screen.getByRole('link', { name: 'Fine' }));
    expect(await screen.findByRole('heading', { name: 'A fine page' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();

    // Going back to the broken page fails again, in the same place.
    fireEvent.click(screen.getByRole('link', { name: 'Broken' }));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
  });
});
