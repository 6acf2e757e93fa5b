import { describe, expect, it } from 'vitest';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors } from 'react-hook-form';
import { CreateClassBody } from '@skillhive/shared/rules/class-form';
import { CLASS_MESSAGES } from '@skillhive/shared/rules/messages';

// The form reads its messages through the resolver, which reports a failed union by its branches'
// first issue: the spec's words (spec §5) must survive that path, not only a direct parse.
const resolve = zodResolver(CreateClassBody);

async function priceMessage(price: unknown): Promise<string | undefined> {
  const values = { title: 'A class', price, description: 'About it', image: '/x.png', category: 'graphic-design' };
  const result = await resolve(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
  return (result.errors as FieldErrors<{ price: unknown }>).price?.message;
}

describe('the class form through its resolver', () => {
  it('says a missing price is required, an empty one too, and a word is not a number', async () => {
    expect(await priceMessage(undefined)).toBe(CLASS_MESSAGES.priceRequired);
    expect(await priceMessage('  ')).toBe(CLASS_MESSAGES.priceRequired);
    expect(await priceMessage('abc')).toBe(CLASS_MESSAGES.priceNumber);
    expect(await priceMessage('49.99')).toBeUndefined();
  });
});
