import { afterEach, describe, expect, it, vi } from 'vitest';

/** route-data keeps whether the first page load is over in module state: a fresh module per test. */
async function freshRouteData() {
  vi.resetModules();
  return import('./route-data.ts');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('loadRouteData', () => {
  it('waits for a first render’s data that arrives in time (decision 008)', async () => {
    const { loadRouteData } = await freshRouteData();
    let arrived = false;
    const prefetch = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
      arrived = true;
    });
    await loadRouteData(prefetch, 1_000);
    expect(arrived).toBe(true);
  });

  it('stops waiting for a slow API after the bound, so the shell paints (decision 020)', async () => {
    vi.useFakeTimers();
    const { loadRouteData, FIRST_RENDER_WAIT_MS } = await freshRouteData();
    let done = false;
    void loadRouteData(new Promise(() => undefined)).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(FIRST_RENDER_WAIT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('does not wait at all after the first page load, and a failed read never fails the loader', async () => {
    const { loadRouteData, endFirstPageLoad } = await freshRouteData();
    await expect(loadRouteData(Promise.reject(new Error('offline')), 1_000)).resolves.toBeNull();
    endFirstPageLoad();
    const started = Date.now();
    await expect(loadRouteData(new Promise(() => undefined), 5_000)).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
