import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { totalFailureMessage } from './payment-page.tsx';

describe('the payment page when the total fails', () => {
  it('says in a sentence that nothing was charged when the server or the network failed', () => {
    const expected = 'We could not work out your total just now. Nothing was charged — please try again in a moment.';
    expect(totalFailureMessage(new ApiError({ status: 500, code: 'internal', message: 'Internal Server Error' }))).toBe(
      expected,
    );
    expect(totalFailureMessage(new TypeError('Failed to fetch'))).toBe(expected);
  });

  it("keeps the server's own sentence for a refusal", () => {
    const refusal = new ApiError({ status: 409, code: 'conflict', message: 'This coupon has been used up' });
    expect(totalFailureMessage(refusal)).toBe('This coupon has been used up');
  });
});
