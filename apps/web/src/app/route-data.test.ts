import { describe, expect, it } from 'vitest';
import { queryOptions } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';
import { FIRST_RENDER_WAIT_MS, loadRouteData } from './route-data.ts';

/** A read that answers when the test says so, and records whether its request was aborted. */
function heldRead(name: string) {
  let answer: (value: string) => void = () => undefined;
  const seen: { aborted: boolean } = { aborted: false };
  const options = queryOptions({
    queryKey: ['route-data-test', name],
    queryFn: ({ signal }) =>
      new Promise<string>((resolve, reject) => {
        answer = resolve;
        signal.addEventListener('abort', () => {
          seen.aborted = true;
          reject(new Error('aborted'));
        });
      }),
  });
  return { options, answer: (value: string) => answer(value), seen };
}

const navigation = () => new AbortController();
const requestOf = (controller: AbortController) => new Request('http://localhost/', { signal: controller.signal });

describe('loadRouteData', () => {
  it('on the first page load waits for the read, and the page renders with its answer', async () => {
    const read = heldRead('first');
    const loaded = loadRouteData(read.options, { request: requestOf(navigation()), firstLoad: true }, 5_000);
    let settled = false;
    void loaded.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    read.answer('catalogue');
    await expect(loaded).resolves.toBeNull();
    expect(queryClient.getQueryData(read.options.queryKey)).toBe('catalogue');
  });

  it('waits at most FIRST_RENDER_WAIT_MS for a slow read (decision 020)', async () => {
    const read = heldRead('slow');
    const started = Date.now();
    await loadRouteData(read.options, { request: requestOf(navigation()), firstLoad: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(FIRST_RENDER_WAIT_MS - 5);
    expect(Date.now() - started).toBeLessThan(FIRST_RENDER_WAIT_MS + 1_000);
    read.answer('late');
  });

  it('does not wait on later navigations, but starts the read', async () => {
    const read = heldRead('later');
    await expect(
      loadRouteData(read.options, { request: requestOf(navigation()), firstLoad: false }, 60_000),
    ).resolves.toBeNull();
    expect(queryClient.getQueryCache().find({ queryKey: read.options.queryKey })?.state.fetchStatus).toBe('fetching');
    read.answer('done');
  });

  it('stops waiting when the navigation is abandoned, and cancels the read no page uses', async () => {
    const read = heldRead('abandoned');
    const controller = navigation();
    const loaded = loadRouteData(read.options, { request: requestOf(controller), firstLoad: true }, 60_000);
    controller.abort();
    await expect(loaded).resolves.toBeNull();
    await expect.poll(() => read.seen.aborted).toBe(true);
    expect(queryClient.getQueryData(read.options.queryKey)).toBeUndefined();
  });
});
