import { afterEach, describe, expect, it } from 'vitest';
import type { StripeConstructor } from '@stripe/stripe-js';
import { loadStripeJs } from './load-stripe-js.ts';

const scriptsOf = (url: string) =>
  [...document.querySelectorAll<HTMLScriptElement>('script')].filter((s) => s.src === url);

describe('loadStripeJs', () => {
  afterEach(() => {
    delete window.Stripe;
    document.head.querySelectorAll('script').forEach((script) => script.remove());
  });

  it('adds the configured script once, however often the page asks, and answers with window.Stripe', async () => {
    const url = 'http://127.0.0.1:4242/v3/';
    const first = loadStripeJs(url);
    const second = loadStripeJs(url);
    expect(second).toBe(first);
    const [script, ...others] = scriptsOf(url);
    expect(others).toEqual([]);
    // What Stripe.js does when it runs: define window.Stripe.
    const Stripe = (() => null) as unknown as StripeConstructor;
    window.Stripe = Stripe;
    script!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(Stripe);
  });

  it('forgets a failed load, so trying again adds the script anew', async () => {
    const url = 'http://127.0.0.1:4242/unreachable/';
    const failed = loadStripeJs(url);
    scriptsOf(url)[0]!.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow('Stripe.js could not be loaded');
    expect(scriptsOf(url)).toEqual([]);

    const retry = loadStripeJs(url);
    expect(retry).not.toBe(failed);
    expect(scriptsOf(url)).toHaveLength(1);
    scriptsOf(url)[0]!.dispatchEvent(new Event('load'));
    // Loaded, but it did not define Stripe (a wrong address): an error, not a hang.
    await expect(retry).rejects.toThrow('did not start');
  });
});
